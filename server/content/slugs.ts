import anyAscii from 'any-ascii';
import { slugifyWith } from '../../common/slug-rules.js';

/** The slug of any text (`Über Café` -> `uber-cafe`), by the shared rules with any-ascii's transliteration. */
export function slugify(text: string): string {
  return slugifyWith(anyAscii, text);
}
