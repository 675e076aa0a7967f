import type { ColumnDescriptor } from '../../common/api-contract.js';
import { describeProblem, type FieldProblem } from '../../common/field-problems.js';
import { ORDER_OPERATORS, type ParsedFilter, parseFilterText } from '../../common/filter-syntax.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES, findLocale } from '../../common/locale-rules.js';
import type { FilterCondition } from '../db/queries/filter-conditions.js';
import { missingColumnName } from '../db/queries/internal-names.js';
import type { RowSelection } from '../db/repositories/content-repository.js';
import { AppError } from '../errors/app-error.js';
import { fieldFor } from '../fields/field-registry.js';
import { searchColumnsIn } from '../locales/locale-search-columns.js';
import { localizedColumnsOf, valueColumnIn } from '../locales/localized-values.js';
import { type ContentType, SYSTEM_SORTABLE } from './content-type.js';
import { hiddenRelationRefused } from './relations.js';

/** Most values one `:in=` filter may list. */
export const MAX_FILTER_CHOICES = 100;

/** Finds a relation's target type by its slug (the content-type registry). */
export interface FilterTargets {
  findBySlug(slug: string): ContentType | undefined;
}

/**
 * The locale a list's filters, order and search read localized columns in: each localized column
 * is its stored column in `code` (`valueColumnIn`), which holds the value after fallback.
 */
export interface ListLocale {
  document: LocalesDocument;
  code: string;
}

/** The default locale of a site with one locale: every column is read as it is stored. */
const DEFAULT_LIST_LOCALE: ListLocale = { document: DEFAULT_LOCALES, code: DEFAULT_LOCALES.default };

/** The stored column a filter or order on `column` (a content column, or a system one) reads in `locale`. */
export function storedColumnIn(locale: ListLocale, column: ColumnDescriptor | undefined, name: string): string {
  return column ? valueColumnIn(locale.document, column, locale.code) : name;
}

/**
 * The columns a search in `locale` covers (server/locales/locale-search-columns.ts): resolved once
 * per type and locale, so that a repository and the engine's in-memory indexes, keyed by the array,
 * see the same one on every request. A table's search index follows every locale's columns, so a
 * search in any locale is answered by an index of its own columns, as the default's is.
 */
const searchedIn = new WeakMap<readonly string[], Map<string, readonly string[]>>();

function searchColumnsInList(type: ContentType, locale: ListLocale): readonly string[] {
  let byLocale = searchedIn.get(type.searchColumns);
  if (!byLocale) {
    byLocale = new Map();
    searchedIn.set(type.searchColumns, byLocale);
  }
  const key = `${locale.code}\u0000${locale.document.default}`;
  let found = byLocale.get(key);
  if (!found) {
    const columns = searchColumnsIn(locale.document, type.columnsByName, type.searchColumns, locale.code);
    found = columns.every((name, i) => name === type.searchColumns[i]) ? type.searchColumns : columns;
    byLocale.set(key, found);
  }
  return found;
}

/** A field filter as the grammar read it. */
type FieldFilter = Extract<ParsedFilter, { kind: 'field' }>;

/**
 * Reads the `filter` parameters (see common/filter-syntax.ts) against a content type. Whatever
 * cannot be honoured exactly (an unknown field, an order comparison on a column without order, a
 * value the column could not hold) is a 400 that names the filter: a filter silently dropped would
 * widen the answer. A filter on a relation in `hidden` is refused (403) before anything about it is
 * looked at, so its answer is the same whether the row it names exists or not. Localized columns
 * are filtered and searched in `locale` (their values after fallback); `missing:<code>` asks for
 * rows lacking a value of their own in a listed locale.
 */
export function parseFilters(
  type: ContentType,
  raw: unknown,
  targets?: FilterTargets,
  hidden: ReadonlySet<string> = new Set(),
  locale: ListLocale = DEFAULT_LIST_LOCALE,
): RowSelection {
  const filters = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const equals: FilterCondition[] = [];
  const keywords: string[] = [];
  for (const text of filters) {
    if (typeof text !== 'string') throw new AppError('bad_request', 'filter must be field=value');
    const read = parseFilterText(text);
    if (!read.ok) throw refused(text, read.field, read.problem);
    const { filter } = read;
    if (filter.kind === 'search') {
      if (filter.keyword.trim() !== '') keywords.push(filter.keyword.trim());
      continue;
    }
    if (filter.kind === 'missing') {
      equals.push(missingCondition(type, text, filter.locale, locale.document));
      continue;
    }
    if (hidden.has(filter.field)) throw hiddenRelationRefused(filter.field);
    equals.push(conditionOf(type, text, filter, locale, targets));
  }
  const selection: RowSelection = { equals };
  if (keywords.length > 0) {
    if (type.searchColumns.length === 0) {
      throw new AppError('bad_request', `Content type ${type.table} has no title or slug to search`);
    }
    selection.search = { columns: searchColumnsInList(type, locale), keywords };
  }
  return selection;
}

/**
 * `missing:<code>`: rows whose missing column in that locale names a field (a localized field with
 * no value of its own there). A type without localized fields lacks nothing: no row matches (`id`
 * is never null). An unlisted locale is a 400 `unknown_locale` listing the site's locales.
 */
function missingCondition(type: ContentType, text: string, raw: string, document: LocalesDocument): FilterCondition {
  const code = findLocale(document, raw)?.code;
  if (code === undefined) {
    const locales = document.locales.map((one) => one.code);
    const problem = { code: 'unknown_locale', locales } as const;
    throw new AppError(
      'bad_request',
      `filter ${JSON.stringify(text)}: ${JSON.stringify(raw)} is not one of the site's locales (${locales.join(', ')})`,
      { 'filter.missing': problem },
      problem,
    );
  }
  if (localizedColumnsOf(type.columns).length === 0) return { column: 'id', value: null, match: 'equals' };
  return { column: missingColumnName(code), op: 'ne', value: null, match: 'equals' };
}

/** A 400 naming the filter, with its problem as data under `filter.<field>` (or `filter`). */
function refused(text: string, field: string | undefined, problem: FieldProblem): AppError {
  const key = field === undefined ? 'filter' : `filter.${field}`;
  return new AppError('bad_request', `filter ${JSON.stringify(text)}: ${field ?? 'it'} ${describeProblem(problem)}`, {
    [key]: problem,
  });
}

function conditionOf(
  type: ContentType,
  text: string,
  filter: FieldFilter,
  locale: ListLocale,
  targets?: FilterTargets,
): FilterCondition {
  const { field, operator } = filter;
  // A list of thousands would be a slow query rather than a filter.
  if (filter.values.length > MAX_FILTER_CHOICES) {
    throw refused(text, field, { code: 'too_many', max: MAX_FILTER_CHOICES, of: 'values' });
  }
  const column = type.columnsByName.get(field);
  const fieldType = column && fieldFor(column.type);
  if (fieldType ? fieldType.filter === 'none' : !SYSTEM_SORTABLE.has(field)) {
    const choices = [...type.columns.map((c) => c.name), ...SYSTEM_SORTABLE].join(', ');
    throw new AppError(
      'bad_request',
      `filter ${JSON.stringify(text)} names ${JSON.stringify(field)}, which is not a field of ${type.table} (fields: ${choices})`,
      { [`filter.${field}`]: { code: 'not_a_field', table: type.table } },
    );
  }
  if (filter.through !== undefined) return throughCondition(text, filter, column, locale, targets);
  const match = fieldType?.filter === 'contains' ? 'contains' : 'equals';
  const orderable = fieldType ? fieldType.orderable : true;
  if (ORDER_OPERATORS.has(operator) && !orderable) throw refused(text, field, { code: 'not_comparable' });
  const stored = storedColumnIn(locale, column, field);
  if (operator === 'empty') return { column: stored, value: null, match };
  if (operator === 'notempty') return { column: stored, op: 'ne', value: null, match };
  const values = filter.values.map((value) => filterValue(text, field, column, value, operator));
  if (operator === 'in') return { column: stored, op: 'in', value: values, match };
  return operator === 'eq'
    ? { column: stored, value: values[0], match }
    : { column: stored, op: operator, value: values[0], match };
}

/** `relation.slug=value`: rows whose relation points at a target row with that slug. */
function throughCondition(
  text: string,
  filter: FieldFilter,
  column: ColumnDescriptor | undefined,
  locale: ListLocale,
  targets?: FilterTargets,
): FilterCondition {
  const { field, operator } = filter;
  if (column?.type !== 'relation') throw refused(text, field, { code: 'not_a_relation' });
  const target = targets?.findBySlug(column.target ?? '');
  if (!target) throw refused(text, field, { code: 'target_type_gone', type: column.target ?? '' });
  const slug = target.columnsByName.get(filter.through ?? '');
  if (slug?.type !== 'slug') {
    const slugs = target.columns.filter((c) => c.type === 'slug').map((c) => c.name);
    throw refused(text, field, { code: 'not_a_target_slug', table: target.table, slugs });
  }
  if (operator !== 'eq' && operator !== 'ne' && operator !== 'in') throw refused(text, field, { code: 'not_a_filter' });
  const values = filter.values.map((value) => filterValue(text, field, slug, value, operator));
  // A localized target slug is looked up in the list's locale, as a read by slug there would find it.
  const through = { table: target.table, column: storedColumnIn(locale, slug, slug.name) };
  return { column: field, op: operator, value: operator === 'in' ? values : values[0], match: 'equals', through };
}

/** One value parsed by its column's type (system fields take the text as it is). */
function filterValue(
  text: string,
  field: string,
  column: ColumnDescriptor | undefined,
  value: string,
  operator: FieldFilter['operator'],
): unknown {
  // The spec's `field=` asks for rows where the field has no value; `field!=` for rows that have one.
  if (value === '' && (operator === 'eq' || operator === 'ne')) return null;
  if (operator !== 'eq' && value.includes('\u0000')) throw refused(text, field, { code: 'nul_character' });
  if (value === '') throw refused(text, field, { code: 'not_a_filter' });
  if (!column) return value;
  const parsed = fieldFor(column.type).parseFilter(value, column);
  if (!parsed.ok) throw refused(text, field, parsed.problem);
  return parsed.value;
}
