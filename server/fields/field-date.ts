import { normalizeDate } from '../../common/datetime-syntax.js';
import type { FieldType, ParseResult } from './field.js';
import { ok, parseText, problem, storedAsIs, storedText } from './field.js';

const FORMAT_PROBLEM = 'must be a real date in the format YYYY-MM-DD';

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
  checkDescriptor: () => [],
};
