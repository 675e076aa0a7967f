import type { FieldType } from './field.js';
import { ok, problem, singleString } from './field.js';

/** Longest text value accepted; far above any title, well below the body size limit. */
export const MAX_TEXT_LENGTH = 100_000;

/** `text`: a single line of text, stored verbatim. */
export const textField: FieldType = {
  type: 'text',
  sqlType: 'text',
  filterable: true,
  parse(raw) {
    const single = singleString(raw);
    if (!single.ok || single.value === null) return single;
    const value = single.value as string;
    if (value.length > MAX_TEXT_LENGTH) return problem(`must be at most ${MAX_TEXT_LENGTH} characters`);
    if (value.includes('\u0000')) return problem('must not contain NUL characters');
    return ok(value);
  },
  parseFilter: (raw) => ok(raw),
  serialize: (stored) => (stored === null || stored === undefined ? null : String(stored)),
  checkDescriptor: () => [],
};
