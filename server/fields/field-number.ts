import { parseNumberText } from '../../common/number-syntax.js';
import type { FieldType, ParseResult } from './field.js';
import { anyDescriptor, ok, parseText, problem, storedAsIs } from './field.js';

function parseNumber(raw: unknown): ParseResult {
  if (typeof raw === 'number') return Number.isFinite(raw) ? ok(raw) : problem({ code: 'not_finite' });
  return parseText(raw, (text) => {
    const parsed = parseNumberText(text);
    if (parsed.kind === 'number') return ok(parsed.value);
    if (parsed.kind === 'invalid' && parsed.reason === 'not_finite') return problem({ code: 'not_finite' });
    return problem({ code: 'not_a_number' });
  });
}

/** `number`: a finite number (integer or decimal), stored as a SQL REAL so it sorts numerically. */
export const numberField: FieldType = {
  type: 'number',
  sqlType: 'real',
  filter: 'equals',
  orderable: true,
  parse: parseNumber,
  parseFilter: parseNumber,
  toStored: storedAsIs,
  jsonSchema: (_column, use) =>
    use === 'read'
      ? { type: 'number' }
      : use === 'write'
        ? { type: ['number', 'string'], description: 'A finite number, or its decimal text' }
        : { type: 'string', description: 'A finite number as decimal text' },
  serialize: (stored) => (stored === null || stored === undefined ? null : Number(stored)),
  checkDescriptor: anyDescriptor,
};
