import { isMediaPath } from '../../common/media-rules.js';
import type { FieldType } from './field.js';
import { ok, parseText, problem, storedAsIs, storedText } from './field.js';

/** `image`: the path of an uploaded file, exactly as `POST /api/uploads` returned it. */
export const imageField: FieldType = {
  type: 'image',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    return parseText(raw, (path) =>
      isMediaPath(path) ? ok(path) : problem('must be the path of an uploaded file, as POST /api/uploads returns it'),
    );
  },
  parseFilter: (raw) => ok(raw),
  toStored: storedAsIs,
  serialize: storedText,
  checkDescriptor: () => [],
};
