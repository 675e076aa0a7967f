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
      return ids.includes(id) ? ok(id) : problem(`must be one of ${ids.join(', ')}`);
    });
  },
  parseFilter(raw, column) {
    return this.parse(raw, column);
  },
  toStored: storedAsIs,
  serialize: storedText,
  checkDescriptor(column) {
    const options = column.options;
    if (!Array.isArray(options) || options.length === 0) return ['a select needs at least one option'];
    const ids = new Set<string>();
    for (const option of options) {
      if (typeof option?.id !== 'string' || option.id === '' || typeof option.text !== 'string') {
        return ['each option needs a non-empty string id and a string text'];
      }
      if (ids.has(option.id)) return [`option id ${option.id} is repeated`];
      ids.add(option.id);
    }
    return [];
  },
};
