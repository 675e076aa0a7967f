import type { ColumnDescriptor } from '../../common/api-contract.js';
import { describeProblem, type FieldProblem } from '../../common/field-problems.js';
import { ORDER_OPERATORS, type ParsedFilter, parseFilterText } from '../../common/filter-syntax.js';
import type { FilterCondition } from '../db/queries/filter-conditions.js';
import type { RowSelection } from '../db/repositories/content-repository.js';
import { AppError } from '../errors/app-error.js';
import { fieldFor } from '../fields/field-registry.js';
import { type ContentType, SYSTEM_SORTABLE } from './content-type.js';
import { hiddenRelationRefused } from './relations.js';

/** Most values one `:in=` filter may list. */
export const MAX_FILTER_CHOICES = 100;

/** Finds a relation's target type by its slug (the content-type registry). */
export interface FilterTargets {
  findBySlug(slug: string): ContentType | undefined;
}

/** A field filter as the grammar read it. */
type FieldFilter = Extract<ParsedFilter, { kind: 'field' }>;

/**
 * Reads the `filter` parameters (see common/filter-syntax.ts) against a content type. Whatever
 * cannot be honoured exactly (an unknown field, an order comparison on a column without order, a
 * value the column could not hold) is a 400 that names the filter: a filter silently dropped would
 * widen the answer. A filter on a relation in `hidden` is refused (403) before anything about it is
 * looked at, so its answer is the same whether the row it names exists or not.
 */
export function parseFilters(
  type: ContentType,
  raw: unknown,
  targets?: FilterTargets,
  hidden: ReadonlySet<string> = new Set(),
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
    if (hidden.has(filter.field)) throw hiddenRelationRefused(filter.field);
    equals.push(conditionOf(type, text, filter, targets));
  }
  const selection: RowSelection = { equals };
  if (keywords.length > 0) {
    if (type.searchColumns.length === 0) {
      throw new AppError('bad_request', `Content type ${type.table} has no title or slug to search`);
    }
    selection.search = { columns: type.searchColumns, keywords };
  }
  return selection;
}

/** A 400 naming the filter, with its problem as data under `filter.<field>` (or `filter`). */
function refused(text: string, field: string | undefined, problem: FieldProblem): AppError {
  const key = field === undefined ? 'filter' : `filter.${field}`;
  return new AppError('bad_request', `filter ${JSON.stringify(text)}: ${field ?? 'it'} ${describeProblem(problem)}`, {
    [key]: problem,
  });
}

function conditionOf(type: ContentType, text: string, filter: FieldFilter, targets?: FilterTargets): FilterCondition {
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
  if (filter.through !== undefined) return throughCondition(text, filter, column, targets);
  const match = fieldType?.filter === 'contains' ? 'contains' : 'equals';
  const orderable = fieldType ? fieldType.orderable : true;
  if (ORDER_OPERATORS.has(operator) && !orderable) throw refused(text, field, { code: 'not_comparable' });
  if (operator === 'empty') return { column: field, value: null, match };
  if (operator === 'notempty') return { column: field, op: 'ne', value: null, match };
  const values = filter.values.map((value) => filterValue(text, field, column, value, operator));
  if (operator === 'in') return { column: field, op: 'in', value: values, match };
  return operator === 'eq'
    ? { column: field, value: values[0], match }
    : { column: field, op: operator, value: values[0], match };
}

/** `relation.slug=value`: rows whose relation points at a target row with that slug. */
function throughCondition(
  text: string,
  filter: FieldFilter,
  column: ColumnDescriptor | undefined,
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
  const through = { table: target.table, column: slug.name };
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
