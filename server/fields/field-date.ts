import { normalizeDate } from '../../common/datetime-syntax.js';
import type { FieldProblem } from '../../common/field-problems.js';
import type { FieldType, ParseResult } from './field.js';
import { anyDescriptor, ok, parseText, problem, storedAsIs, storedText } from './field.js';

const FORMAT_PROBLEM: FieldProblem = { code: 'not_a_date' };

function parseDate(raw: unknown): ParseResult {
  return parseText(raw, (text) => {
    const date = normalizeDate(text);
    return date === null ? problem(FORMAT_PROBLEM) : ok(date);
  });
}

/** `date`: a calendar date, stored as sortable `YYYY-MM-DD` text. */
export const dateField: FieldType = {
  type: 'date',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse: parseDate,
  parseFilter: parseDate,
  toStored: storedAsIs,
  serialize: storedText,
  jsonSchema: () => ({ type: 'string', format: 'date', description: 'A calendar date, YYYY-MM-DD' }),
  checkDescriptor: anyDescriptor,
};
