import type { FieldType, ParseResult } from './field.js';
import { anyDescriptor, ok, parseText, problem } from './field.js';

const TRUE = new Set(['true', '1', 'on', 'yes']);
const FALSE = new Set(['false', '0', 'off', 'no']);

function parseBoolean(raw: unknown): ParseResult {
  if (typeof raw === 'boolean') return ok(raw);
  return parseText(raw, (given) => {
    const text = given.trim().toLowerCase();
    if (TRUE.has(text)) return ok(true);
    if (FALSE.has(text)) return ok(false);
    return problem({ code: 'not_a_boolean' });
  });
}

/** `boolean`: true or false (forms send true/false, 1/0 or a checkbox's on), stored as 1/0. */
export const booleanField: FieldType = {
  type: 'boolean',
  sqlType: 'integer',
  filter: 'equals',
  orderable: true,
  parse: parseBoolean,
  parseFilter(raw) {
    const parsed = parseBoolean(raw);
    return parsed.ok && parsed.value !== null ? ok(parsed.value ? 1 : 0) : problem({ code: 'not_a_boolean' });
  },
  toStored: (value) => (value === null ? null : value ? 1 : 0),
  serialize: (stored) => (stored === null || stored === undefined ? null : Number(stored) === 1),
  jsonSchema(_column, use) {
    const words = { type: 'string', enum: [...TRUE, ...FALSE] };
    return use === 'read' ? { type: 'boolean' } : use === 'write' ? { anyOf: [{ type: 'boolean' }, words] } : words;
  },
  checkDescriptor: anyDescriptor,
};
