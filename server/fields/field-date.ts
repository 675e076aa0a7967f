import { normalizeDatetime } from './datetime-format.js';
import type { FieldType, ParseResult } from './field.js';
import { ok, parseText, problem, storedAsIs, storedText } from './field.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const FORMAT_PROBLEM = 'must be a real date in the format YYYY-MM-DD';

function parseDate(raw: unknown): ParseResult {
  return parseText(raw, (given) => {
    const text = given.trim();
    // A date is valid exactly when that day at midnight is a valid datetime.
    if (!DATE.test(text) || normalizeDatetime(`${text} 00:00:00`) === null) return problem(FORMAT_PROBLEM);
    return ok(text);
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
  checkDescriptor: () => [],
};
