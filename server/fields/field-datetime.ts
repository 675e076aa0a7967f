import { normalizeDatetime } from '../../common/datetime-syntax.js';
import type { FieldProblem } from '../../common/field-problems.js';
import type { FieldType } from './field.js';
import { anyDescriptor, ok, parseText, problem, storedAsIs, storedText } from './field.js';

const FORMAT_PROBLEM: FieldProblem = { code: 'not_a_datetime' };

/** `datetime`: wall-clock date and time, stored as sortable `YYYY-MM-DD HH:MM:SS` text. */
export const datetimeField: FieldType = {
  type: 'datetime',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    return parseText(raw, (text) => {
      const normalized = normalizeDatetime(text);
      return normalized === null ? problem(FORMAT_PROBLEM) : ok(normalized);
    });
  },
  parseFilter(raw) {
    const normalized = normalizeDatetime(raw);
    return normalized === null ? problem(FORMAT_PROBLEM) : ok(normalized);
  },
  toStored: storedAsIs,
  serialize: storedText,
  jsonSchema(_column, use) {
    if (use !== 'read') {
      return {
        type: 'string',
        description: 'YYYY-MM-DD HH:MM:SS; also accepted: a T separator, no seconds, fractional seconds, a trailing Z',
        examples: ['2026-01-31 09:30:00'],
      };
    }
    return {
      type: 'string',
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
      description: 'Wall-clock date and time, YYYY-MM-DD HH:MM:SS, no time zone (sorts as text)',
      examples: ['2026-01-31 09:30:00'],
    };
  },
  checkDescriptor: anyDescriptor,
};
