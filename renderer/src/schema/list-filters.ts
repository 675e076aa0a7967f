import type { ContentTypeSummary, PublishedColumn } from '../../../common/api-contract.js';
import { formatFilter, type ParsedFilter, parseFilterText } from '../../../common/filter-syntax.js';

/**
 * The list's filter controls and the `filter` parameters they send (common/filter-syntax.ts).
 * Their state lives in the URL as `f.<key>=<value>`:
 * - a select column: `f.status=draft|published` (the chosen option ids, as `:in=` lists them)
 * - a boolean: `f.featured=true` or `false`
 * - a date or datetime: `f.published_at.from=2025-01-01` and `f.published_at.to=2025-12-31`
 * - a relation: `f.category=slug:culture` (by the target row's slug) or `f.category=id:<id>` (a target without one)
 * - rows lacking a translation (types with translatable fields): `f.locale.missing=de` (MISSING_FILTER in
 *   translation/localized-pages.tsx; no column has a `.` in its name)
 */

/** One control of the list toolbar. */
export type FilterControl =
  | { kind: 'choices'; column: PublishedColumn }
  | { kind: 'boolean'; column: PublishedColumn }
  | { kind: 'range'; column: PublishedColumn }
  | { kind: 'relation'; column: PublishedColumn };

/** URL keys of a date range's ends. */
export const rangeKeys = (column: string) => ({ from: `${column}.from`, to: `${column}.to` });

/** The controls a type's list offers: select, boolean, date, datetime and relation columns the server filters. */
export function filterControls(type: Pick<ContentTypeSummary, 'columns'>): FilterControl[] {
  const controls: FilterControl[] = [];
  for (const column of type.columns) {
    if (!column.filterable) continue;
    if (column.type === 'select' && (column.options?.length ?? 0) > 0) controls.push({ kind: 'choices', column });
    else if (column.type === 'boolean') controls.push({ kind: 'boolean', column });
    else if ((column.type === 'date' || column.type === 'datetime') && column.orderable) {
      controls.push({ kind: 'range', column });
    } else if (column.type === 'relation' && column.target) controls.push({ kind: 'relation', column });
  }
  return controls;
}

/** The option ids a `choices` value holds (`draft|published`; `\|` is a `|` inside an id). */
export function choicesOf(value: string | undefined): string[] {
  if (!value) return [];
  const read = parseFilterText(`x:in=${value}`);
  return read.ok && read.filter.kind === 'field' ? read.filter.values : [];
}

/** The URL value of chosen option ids ('' for none). */
export function choicesValue(ids: readonly string[]): string {
  if (ids.length === 0) return '';
  return formatFilter({ kind: 'field', field: 'x', operator: 'in', values: [...ids] }).slice('x:in='.length);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The `filter` parameters of the controls' state; values a control could not have set are left out. */
export function filterParams(
  type: Pick<ContentTypeSummary, 'columns'>,
  filters: Readonly<Record<string, string>>,
): string[] {
  const params: ParsedFilter[] = [];
  const field = (column: PublishedColumn, operator: 'eq' | 'in' | 'ge' | 'le', values: string[], through?: string) =>
    params.push({ kind: 'field', field: column.name, operator, values, ...(through ? { through } : {}) });
  for (const control of filterControls(type)) {
    const { column } = control;
    const value = filters[column.name];
    switch (control.kind) {
      case 'choices': {
        const ids = choicesOf(value).filter((id) => column.options?.some((option) => option.id === id));
        if (ids.length === 1) field(column, 'eq', ids);
        else if (ids.length > 1) field(column, 'in', ids);
        break;
      }
      case 'boolean':
        if (value === 'true' || value === 'false') field(column, 'eq', [value]);
        break;
      case 'range': {
        const keys = rangeKeys(column.name);
        const [from, to] = [filters[keys.from], filters[keys.to]];
        const datetime = column.type === 'datetime';
        // A day range takes in the whole of its last day.
        if (from && DATE.test(from)) field(column, 'ge', [datetime ? `${from} 00:00:00` : from]);
        if (to && DATE.test(to)) field(column, 'le', [datetime ? `${to} 23:59:59` : to]);
        break;
      }
      case 'relation':
        if (value) field(column, 'eq', [value.slice(value.indexOf(':') + 1)], relationKey(value));
        break;
    }
  }
  return params.map(formatFilter);
}

/** A relation control's URL value: `<slug column>:<slug>` by the target's slug, `id:<id>` by id. */
export function relationValue(by: { slugColumn: string; slug: string } | { id: string }): string {
  return 'id' in by ? `id:${by.id}` : `${by.slugColumn}:${by.slug}`;
}

/** The target column a relation value filters through (undefined: by id). */
function relationKey(value: string): string | undefined {
  const key = value.slice(0, Math.max(0, value.indexOf(':')));
  return key === '' || key === 'id' ? undefined : key;
}
