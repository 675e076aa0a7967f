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
  checkDescriptor: anyDescriptor,
};
