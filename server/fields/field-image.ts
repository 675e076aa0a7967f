import type { FieldType } from './field.js';
import { ok, problem, singleString, storedAsIs, storedText } from './field.js';

/**
 * The shape of a path the upload endpoint hands out: `/media/` then folders and a file name of
 * letters, digits, `-`, `_` and dots, never a `..` segment.
 */
const MEDIA_PATH = /^\/media\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/** Whether a value has the shape of an uploaded file's path. */
export function looksLikeMediaPath(value: string): boolean {
  return value.length <= 500 && MEDIA_PATH.test(value) && !value.split('/').includes('..');
}

/** `image`: the path of an uploaded file, as returned by `POST /api/uploads`. */
export const imageField: FieldType = {
  type: 'image',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    const single = singleString(raw);
    if (!single.ok || single.value === null) return single;
    const path = single.value as string;
    return looksLikeMediaPath(path)
      ? ok(path)
      : problem('must be the path of an uploaded file, like /media/2026/01/photo.png');
  },
  parseFilter: (raw) => ok(raw),
  toStored: storedAsIs,
  serialize: storedText,
  checkDescriptor: () => [],
};
