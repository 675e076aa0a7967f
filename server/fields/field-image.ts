import { isMediaPath } from '../media/media-path.js';
import type { FieldType } from './field.js';
import { ok, problem, singleString, storedAsIs, storedText } from './field.js';

/** `image`: the path of an uploaded file, exactly as `POST /api/uploads` returned it. */
export const imageField: FieldType = {
  type: 'image',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    const single = singleString(raw);
    if (!single.ok || single.value === null) return single;
    const path = single.value as string;
    return isMediaPath(path)
      ? ok(path)
      : problem('must be the path of an uploaded file, as POST /api/uploads returns it');
  },
  parseFilter: (raw) => ok(raw),
  toStored: storedAsIs,
  serialize: storedText,
  checkDescriptor: () => [],
};
