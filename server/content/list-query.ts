import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import type { RowPage, RowSelection } from '../db/repositories/content-repository.js';
import { AppError } from '../errors/app-error.js';
import { fieldFor } from '../fields/field-registry.js';
import { parseLocaleParameter, type RequestLocale } from '../locales/locale-parameter.js';
import { type ContentType, SYSTEM_SORTABLE } from './content-type.js';
import { type FilterTargets, type ListLocale, parseFilters, storedColumnIn } from './list-filters.js';
import { hiddenRelationRefused } from './relations.js';

/** Rows returned when `limit` is not given. */
export const DEFAULT_LIMIT = 100;
/** Largest `limit` accepted. */
export const MAX_LIMIT = 1000;
/** Largest `offset` accepted (keeps the number an exact integer in SQLite and JS). */
const MAX_OFFSET = 1_000_000_000;

const KNOWN_PARAMETERS = new Set(['filter', 'limit', 'offset', 'order', 'desc', 'locale']);
/** Query parameters accepted and ignored: `_` is the usual cache-buster of HTTP clients. */
const IGNORED_PARAMETERS = new Set(['_']);

/** A list request, checked against the content type. */
export interface ListOptions {
  selection: RowSelection;
  page: RowPage;
  /** The locale rows are read in (`?locale=`); absent (lists the server makes itself): the default locale. */
  locale?: RequestLocale;
}

/**
 * Parses the list query parameters (`filter`, `limit`, `offset`, `order`, `desc`, `locale`) against a content
 * type (`targets` finds the types relations point at, for `relation.slug=` filters). Anything it cannot honour exactly is a 400 that says what is wrong: an unknown field would
 * otherwise silently widen the answer. A filter or order on a relation in `hidden` (the caller may
 * not read its target type, see `hiddenRelations`) is a 403, whatever it asks. `locales` is the
 * site's locales document, which `locale` is checked against; filters, order and search read
 * localized columns in that locale (`locale=all`: the default locale), after fallback.
 */
export function parseListQuery(
  type: ContentType,
  query: Record<string, unknown>,
  targets?: FilterTargets,
  hidden: ReadonlySet<string> = new Set(),
  locales: LocalesDocument = DEFAULT_LOCALES,
): ListOptions {
  for (const name of Object.keys(query)) {
    if (!KNOWN_PARAMETERS.has(name) && !IGNORED_PARAMETERS.has(name)) {
      throw new AppError(
        'bad_request',
        `Unknown query parameter ${JSON.stringify(name)}; use filter, limit, offset, order, desc or locale`,
      );
    }
  }
  const locale = parseLocaleParameter(locales, query.locale);
  const readIn: ListLocale = { document: locales, code: locale.kind === 'one' ? locale.code : locales.default };
  const order = parseOrder(type, query.order);
  if (hidden.has(order)) throw hiddenRelationRefused(order);
  const orderColumn = type.columnsByName.get(order);
  return {
    selection: parseFilters(type, query.filter, targets, hidden, readIn),
    page: {
      limit: parseWholeNumber(query.limit, 'limit', DEFAULT_LIMIT, MAX_LIMIT),
      offset: parseWholeNumber(query.offset, 'offset', 0, MAX_OFFSET),
      order: storedColumnIn(readIn, orderColumn, order),
      desc: parseDesc(query.desc),
      orderByText: orderColumn?.type === 'text',
    },
    locale,
  };
}

function orderableName(type: ContentType, name: string): string {
  const column = type.columnsByName.get(name);
  const allowed = column ? fieldFor(column.type).orderable : SYSTEM_SORTABLE.has(name);
  if (allowed) return name;
  const choices = [...type.columns.map((c) => c.name), ...SYSTEM_SORTABLE].join(', ');
  throw new AppError(
    'bad_request',
    `order names ${JSON.stringify(name)}, which is not a field of ${type.table} (fields: ${choices})`,
  );
}

function parseOrder(type: ContentType, raw: unknown): string {
  if (raw === undefined || raw === '') return 'id';
  if (typeof raw !== 'string') throw new AppError('bad_request', 'order must be given once');
  return orderableName(type, raw);
}

function parseDesc(raw: unknown): boolean {
  if (raw === undefined || raw === '') return false;
  if (typeof raw === 'string') {
    const value = raw.toLowerCase();
    if (value === 'true' || value === '1' || value === 'desc') return true;
    if (value === 'false' || value === '0' || value === 'asc') return false;
  }
  throw new AppError('bad_request', 'desc must be true or false');
}

function parseWholeNumber(raw: unknown, name: string, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw) || Number(raw) > max) {
    throw new AppError('bad_request', `${name} must be a whole number from 0 to ${max}`);
  }
  return Number(raw);
}
