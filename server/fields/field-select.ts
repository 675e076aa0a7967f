import type { SelectOption } from '../../common/api-contract.js';
import type { FieldType } from './field.js';
import { ok, parseText, problem, storedAsIs, storedText } from './field.js';

/** `select`: one of the descriptor's option ids. */
export const selectField: FieldType = {
  type: 'select',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw, column) {
    return parseText(raw, (id) => {
      const ids = (column.options ?? []).map((option) => option.id);
      return ids.includes(id) ? ok(id) : problem({ code: 'not_an_option', options: ids });
    });
  },
  parseFilter(raw, column) {
    return this.parse(raw, column);
  },
  toStored: storedAsIs,
  serialize: storedText,
  jsonSchema(column) {
    const options = column.options ?? [];
    return {
      type: 'string',
      enum: options.map((option) => option.id),
      description: `One of: ${options.map((option) => `${option.id} (${option.text})`).join(', ')}`,
    };
  },
  checkDescriptor(column) {
    const options: unknown = column.options;
    if (!Array.isArray(options) || options.length === 0) return { code: 'no_options' };
    const ids = new Set<string>();
    for (const option of options) {
      if (!isOption(option)) return { code: 'bad_option' };
      if (ids.has(option.id)) return { code: 'repeated_option', id: option.id };
      ids.add(option.id);
    }
    return null;
  },
};

/**
 * Longest option id: ids are stored in rows and in the select's indexes, whose entries PostgreSQL
 * caps (about 2.7 kB for a whole b-tree entry); a NUL is a character PostgreSQL cannot store.
 */
export const MAX_OPTION_ID_LENGTH = 200;

/** An option is exactly `{ id, text }`: a non-empty string id (short, no NUL), a string text, nothing else. */
function isOption(value: unknown): value is SelectOption {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const { id, text, ...rest } = value as Record<string, unknown>;
  return (
    typeof id === 'string' &&
    id !== '' &&
    id.length <= MAX_OPTION_ID_LENGTH &&
    !id.includes('\u0000') &&
    typeof text === 'string' &&
    Object.keys(rest).length === 0
  );
}
