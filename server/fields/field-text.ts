import type { ColumnType } from '../../common/api-contract.js';
import type { FieldType, JsonSchema } from './field.js';
import { anyDescriptor, ok, parseText, problem, storedAsIs, storedText } from './field.js';

/** Longest single-line text accepted; far above any title, well below the body size limit. */
export const MAX_TEXT_LENGTH = 100_000;
/** Longest multi-line text (a markdown body) accepted. */
export const MAX_LONG_TEXT_LENGTH = 1_000_000;

/** A text column: one string, stored verbatim (SQL text included), NUL characters refused. */
export function textLikeField(type: ColumnType, maxLength: number, schema: JsonSchema = {}): FieldType {
  return {
    type,
    sqlType: 'text',
    filter: 'equals',
    orderable: true,
    parse(raw) {
      return parseText(raw, (value) => {
        if (value.length > maxLength) return problem({ code: 'too_long', max: maxLength });
        if (value.includes('\u0000')) return problem({ code: 'nul_character' });
        return ok(value);
      });
    },
    parseFilter: (raw) => ok(raw),
    toStored: storedAsIs,
    serialize: storedText,
    searchText: (stored) => (typeof stored === 'string' && stored !== '' ? stored : null),
    jsonSchema: () => ({ type: 'string', maxLength, ...schema }),
    checkDescriptor: anyDescriptor,
  };
}

/** `text`: a single line of text. */
export const textField = textLikeField('text', MAX_TEXT_LENGTH);
