import { isMediaPath, MEDIA_EXTENSIONS } from '../../common/media-rules.js';
import type { FieldType } from './field.js';
import { anyDescriptor, ok, parseText, problem, storedAsIs, storedText } from './field.js';

/** `image`: the path of an uploaded file, exactly as `POST /api/uploads` returned it. */
export const imageField: FieldType = {
  type: 'image',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    return parseText(raw, (path) => (isMediaPath(path) ? ok(path) : problem({ code: 'not_a_media_path' })));
  },
  parseFilter: (raw) => ok(raw),
  toStored: storedAsIs,
  serialize: storedText,
  jsonSchema: () => ({
    type: 'string',
    pattern: `^/media/\\d{4}/\\d{2}/[0-9a-f-]{36}\\.(?:${MEDIA_EXTENSIONS.join('|')})$`,
    description: 'The path of an uploaded image, as POST /api/uploads returned it (served by this server)',
  }),
  checkDescriptor: anyDescriptor,
};
