import type { FieldProblem } from './field-problems.js';

/**
 * The grammar of one `filter` query parameter of the list endpoint, shared by the server (which
 * checks it against the content type) and the editor (which builds filters from its controls).
 *
 * `field=value` is equality (an empty value asks for rows without a value) and `search=keyword`
 * searches titles and slugs. The other forms put before their first `=` something no field name
 * can be, so they never read as equality:
 *
 * - `field!=value`, `field<value`, `field<=value`, `field>value`, `field>=value`
 * - `field:in=a|b|c`: one of several values; a `|` or `\` inside a value is written `\|` or `\\`
 *   (select option ids may hold any character, so no bare separator could be safe)
 * - `field:empty`, `field:notempty`
 * - `relation.column=value` (and `!=`, `:in=`): a relation by a column of its target, such as
 *   `category.slug=tips`
 * - `missing:de`: rows lacking a value of their own in locale `de` for some localized field. No `=`
 *   follows, so it cannot be a filter on a field called `missing` (whose filters all have an
 *   operator: `missing=x`, `missing:in=…`, `missing:empty` and `missing:notempty` stay theirs)
 *
 * A compared value (after `=`, `!=`, `<`, `<=`, `>`, `>=`) that begins with `=`, `!`, `<` or `>` is
 * refused as ambiguous (`title<>=x` would otherwise read as title < '>=x' where SQL's `<>` was meant);
 * a `\` written before that first character makes it the value's own (`title=\>=x` is title equals
 * '>=x'), and `\\` at the start stands for one `\`. A `\` anywhere else is the value's own.
 */

/** What a field filter asks of the column. */
export type FilterOperator = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge' | 'in' | 'empty' | 'notempty';

/** Operators that compare order (allowed on orderable columns only). */
export const ORDER_OPERATORS: ReadonlySet<FilterOperator> = new Set(['lt', 'le', 'gt', 'ge']);

/** One filter, read but not yet checked against a content type. */
export type ParsedFilter =
  | { kind: 'search'; keyword: string }
  /** `missing:<locale>`: the locale as written (checked against the site's locales by the server). */
  | { kind: 'missing'; locale: string }
  | {
      kind: 'field';
      field: string;
      /** For `relation.column`: the target's column. */
      through?: string;
      operator: FilterOperator;
      /** One value for eq..ge, one or more for `in`, none for empty/notempty. */
      values: string[];
    };

/** A filter read from its text, or why it cannot be (and the field, when it got that far). */
export type FilterSyntaxResult =
  | { ok: true; filter: ParsedFilter }
  | {
      ok: false;
      field?: string;
      problem: Extract<FieldProblem, { code: 'not_a_filter' | 'no_filter_values' | 'ambiguous_filter' }>;
    };

const NOT_A_FILTER = { code: 'not_a_filter' } as const;

/** Operators written after the field name, longest first so `<=` wins over `<`. */
const OPERATOR_TOKENS: readonly (readonly [string, FilterOperator])[] = [
  [':notempty', 'notempty'],
  [':empty', 'empty'],
  [':in=', 'in'],
  ['!=', 'ne'],
  ['<=', 'le'],
  ['>=', 'ge'],
  ['=', 'eq'],
  ['<', 'lt'],
  ['>', 'gt'],
];

/** The characters that end a field name (none can appear in one). */
const NAME_END = /[=!<>:.]/;

/** What follows `missing` in a `missing:<locale>` filter (a locale code holds letters, digits and `-`). */
const MISSING_LOCALE = /^:[A-Za-z0-9-]+$/;

/** Reads one `filter` parameter. */
export function parseFilterText(text: string): FilterSyntaxResult {
  const nameEnd = text.search(NAME_END);
  if (nameEnd === 0) return { ok: false, problem: NOT_A_FILTER };
  if (nameEnd < 0) return { ok: false, field: text, problem: NOT_A_FILTER };
  const field = text.slice(0, nameEnd);
  let rest = text.slice(nameEnd);
  // `search=` is the spec's keyword search (a column cannot be called `search`).
  if (field === 'search' && rest.startsWith('='))
    return { ok: true, filter: { kind: 'search', keyword: rest.slice(1) } };
  if (field === 'missing' && MISSING_LOCALE.test(rest) && rest !== ':empty' && rest !== ':notempty')
    return { ok: true, filter: { kind: 'missing', locale: rest.slice(1) } };
  let through: string | undefined;
  if (rest.startsWith('.')) {
    const end = rest.slice(1).search(NAME_END);
    if (end <= 0) return { ok: false, field, problem: NOT_A_FILTER };
    through = rest.slice(1, end + 1);
    rest = rest.slice(end + 1);
  }
  const token = OPERATOR_TOKENS.find(([written]) => rest.startsWith(written));
  if (!token) return { ok: false, field, problem: NOT_A_FILTER };
  const [written, operator] = token;
  const value = rest.slice(written.length);
  const base = { kind: 'field' as const, field, ...(through === undefined ? {} : { through }) };
  if (operator === 'empty' || operator === 'notempty') {
    return value === ''
      ? { ok: true, filter: { ...base, operator, values: [] } }
      : { ok: false, field, problem: NOT_A_FILTER };
  }
  if (operator === 'in') {
    const values = splitChoices(value);
    return values
      ? { ok: true, filter: { ...base, operator, values } }
      : { ok: false, field, problem: { code: 'no_filter_values' } };
  }
  const compared = unescapeCompared(value);
  if (compared === null) return { ok: false, field, problem: { code: 'ambiguous_filter', operator: written, value } };
  return { ok: true, filter: { ...base, operator, values: [compared] } };
}

/** A compared value beginning with one of these would read as part of another operator. */
const OPERATOR_START = /^[=!<>]/;

/** What a leading `\` escapes: an operator character or a `\` itself. */
const ESCAPED_START = /^[=!<>\\]/;

/** A compared value without its leading escape; null when it begins with an operator character unescaped. */
function unescapeCompared(value: string): string | null {
  if (value.startsWith('\\')) return ESCAPED_START.test(value.slice(1)) ? value.slice(1) : value;
  return OPERATOR_START.test(value) ? null : value;
}

/** `a|b\|c` -> ['a', 'b|c']; null when a choice is empty or a `\` escapes nothing it may. */
function splitChoices(text: string): string[] | null {
  const values: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\') {
      const next = text[i + 1];
      if (next !== '|' && next !== '\\') return null;
      current += next;
      i++;
    } else if (char === '|') {
      values.push(current);
      current = '';
    } else current += char;
  }
  values.push(current);
  return values.some((value) => value === '') ? null : values;
}

const WRITTEN: Record<FilterOperator, string> = {
  eq: '=',
  ne: '!=',
  lt: '<',
  le: '<=',
  gt: '>',
  ge: '>=',
  in: ':in=',
  empty: ':empty',
  notempty: ':notempty',
};

/** The text of a filter, as `parseFilterText` reads it back. */
export function formatFilter(filter: ParsedFilter): string {
  if (filter.kind === 'search') return `search=${filter.keyword}`;
  if (filter.kind === 'missing') return `missing:${filter.locale}`;
  const name = filter.through === undefined ? filter.field : `${filter.field}.${filter.through}`;
  const values =
    filter.operator === 'in'
      ? filter.values.map((value) => value.replace(/[\\|]/g, (char) => `\\${char}`)).join('|')
      : (filter.values[0] ?? '').replace(ESCAPED_START, (char) => `\\${char}`);
  return `${name}${WRITTEN[filter.operator]}${values}`;
}
