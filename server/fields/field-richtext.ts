import type { FieldType } from './field.js';
import { ok } from './field.js';
import { MAX_LONG_TEXT_LENGTH, textLikeField } from './field-text.js';
import { sanitizeRichtext } from './richtext-sanitizer.js';
import { richtextText } from './richtext-text.js';

const asText = textLikeField('richtext', MAX_LONG_TEXT_LENGTH, { contentMediaType: 'text/html' });

/**
 * `richtext`: a body in HTML, as a WYSIWYG editor writes it. Every write is reduced to the
 * allow-list (richtext-sanitizer.ts) before it is stored; a body with nothing left is no value.
 * A search finds its text, not its tags or attributes.
 */
export const richtextField: FieldType = {
  ...asText,
  parse(raw, column) {
    const parsed = asText.parse(raw, column);
    if (!parsed.ok || parsed.value === null) return parsed;
    return ok(sanitizeRichtext(parsed.value as string));
  },
  searchText(stored) {
    if (typeof stored !== 'string' || stored === '') return null;
    return richtextText(stored) || null;
  },
};
