import type { FieldType, ParseResult } from './field.js';
import { ok, parseText, problem, storedAsIs } from './field.js';

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

function parseNumber(raw: unknown): ParseResult {
  if (typeof raw === 'number') return Number.isFinite(raw) ? ok(raw) : problem('must be a finite number');
  return parseText(raw, (given) => {
    const text = given.trim();
    if (!NUMBER.test(text)) return problem('must be a number, like 42 or 3.5');
    const value = Number(text);
    return Number.isFinite(value) ? ok(value) : problem('must be a finite number');
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
  serialize: (stored) => (stored === null || stored === undefined ? null : Number(stored)),
  checkDescriptor: () => [],
};
