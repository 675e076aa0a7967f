import type { ContentRow } from '../../common/api-contract.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import type { ContentType } from '../content/content-type.js';
import { ROW_MEDIA_MEMBER } from '../content/row-input.js';
import { mediaPathsIn } from './media-references.js';

/**
 * The images a row shows: an image column's path, and the paths inside its rich text (`<img src>`),
 * Markdown (`![](...)`) and blocks (their image fields and the rich text within them). A read row
 * carries these images' layout under `media` (AssetService.decorate); the OpenAPI document and the
 * generated types describe that member for exactly the types this says may carry it.
 */

/** Column types whose values may show an image: the path itself, or paths inside text or JSON. */
const IMAGE_SHOWING_TYPES: ReadonlySet<string> = new Set(['image', 'richtext', 'markdown', 'blocks']);

/** The columns of `type` that may show images; none for a type with a column of its own named `media`. */
export function imageShowingColumns(type: ContentType): string[] {
  if (type.columnsByName.has(ROW_MEDIA_MEMBER)) return [];
  return type.columns.filter((column) => IMAGE_SHOWING_TYPES.has(column.type)).map((column) => column.name);
}

/** Whether reads of `type` may carry a `media` member. */
export function rowCarriesMedia(type: ContentType): boolean {
  return imageShowingColumns(type).length > 0;
}

/** The `/media/...` paths of the images a row shows, each once, in column order. */
export function mediaPathsOfRow(row: ContentRow, columns: readonly string[]): string[] {
  const values = row as Record<string, unknown>;
  const found = new Set<string>();
  for (const column of columns) {
    const value = values[column];
    if (value === null || value === undefined) continue;
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    for (const relative of mediaPathsIn(text)) found.add(`${MEDIA_URL_PREFIX}${relative}`);
  }
  return [...found];
}
