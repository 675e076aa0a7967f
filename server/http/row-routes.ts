import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type {
  ContentRow,
  CreateRowResponse,
  DeleteRowResponse,
  GetRowResponse,
  ListResponse,
  Timing,
  UpdateRowResponse,
} from '../../common/api-contract.js';
import type { ContentType } from '../content/content-type.js';
import { parseListQuery } from '../content/list-query.js';
import { PhaseTimer } from '../content/phase-timer.js';
import { describedWithout, hiddenRelations } from '../content/relations.js';
import { parseRichtextFormat, presentRichtext, type RichtextFormat } from '../content/richtext-reads.js';
import type { RowActor, RowList } from '../content/row-service.js';
import { staleWrite, type WriteCheck } from '../content/row-versions.js';
import { resolvePageMeta } from '../content/seo-meta.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { AppError } from '../errors/app-error.js';
import type { RequestLocale } from '../locales/locale-parameter.js';
import { rowActor } from './auth-guard.js';
import type { BodyReader } from './body-parsing.js';
import { type CurrentRow, conditionalRowWrite } from './conditional-writes.js';
import { readableBy } from './describe-routes.js';
import { refuseOtherMethods, writeJson } from './error-middleware.js';
import { ifNoneMatchHits, ROW_READ_UNTAGGED, taggedJsonText } from './etag.js';
import { type IfMatch, parseIfMatch } from './if-match.js';
import { SECURITY_HEADER_LIST } from './security-headers.js';
import { readWithType, type Services, writeWithType } from './services.js';

/** A read's answer: its JSON body and its `Server-Timing` header value (the `time` object's figures). */
export interface TimedRead<T> {
  body: T;
  serverTiming: string;
}

/** What a row route names: the type, the row (none for the type's list) and the query string, as sent. */
export interface RowTarget {
  rawType: string;
  rawId: string | undefined;
  rawQuery: string | undefined;
}

/**
 * `/api/cms/:type` or `/api/cms/:type/:id`, matched as Express matches its routes: any case, an
 * optional trailing slash.
 */
const ROW_TARGET = /^\/api\/cms\/([^/?]+)(?:\/([^/?]+))?\/?(?:\?(.*))?$/i;

/**
 * The row route a request target names, or null for any other route. `/api/cms/:type/trash` is the
 * type's trash (revision-routes.ts), not a row called "trash".
 */
export function rowTargetOf(url: string): RowTarget | null {
  const match = ROW_TARGET.exec(url);
  if (!match || match[2]?.toLowerCase() === 'trash') return null;
  return { rawType: match[1], rawId: match[2], rawQuery: match[3] };
}

/** Answers one request to a row route whose guards have passed; every failure is thrown, for the error mapping. */
export type RowRoutes = (req: IncomingMessage, res: ServerResponse, target: RowTarget) => Promise<void>;

/** What the row routes need besides the services. */
export interface RowRoutesOptions {
  /** The API's body reader (the one Express's routes use). */
  readBody: BodyReader;
}

const LIST_METHODS = ['GET', 'POST'];
const ROW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * `/cms/:type` and `/cms/:type/:id`: list, read, create, update and delete rows, on node's request
 * and response. Reads answer with their ETag (and a 304 when the client has the answer) and their
 * security headers in one head; every other method's body is read first (a malformed one is
 * refused whatever the method), as the API's other routes read theirs. `PUT`, `PATCH` and `DELETE`
 * with `If-Match` write only over the version it names (see conditionalRowWrite). Every one takes
 * `?locale=` (see parseLocaleParameter): reads answer in it and writes write localized fields in it.
 */
export function rowRoutes(services: Services, { readBody }: RowRoutesOptions): RowRoutes {
  const refuseOnList = refuseOtherMethods(LIST_METHODS);
  const refuseOnRow = refuseOtherMethods(ROW_METHODS);
  return async (req, res, { rawType, rawId, rawQuery }) => {
    const method = req.method ?? 'GET';
    const table = decodeURIComponent(rawType);
    const id = rawId === undefined ? undefined : decodeURIComponent(rawId);
    // A single type's one row is read and written at the type's own address.
    const single = id === undefined && services.registry.findByTable(table)?.kind === 'single';
    const query = parseQueryString(rawQuery ?? '');
    const localeOf = () => services.locales.parameter(query.locale);
    if (method === 'GET' || method === 'HEAD') {
      const readable = readableBy(req);
      const locale = await localeOf();
      const read =
        id !== undefined
          ? await readRow(services, table, id, readable, parseRichtextFormat(query.format), locale)
          : single
            ? await readSingle(services, table, readable, parseRichtextFormat(query.format), locale)
            : await readList(services, table, query, readable);
      answerRead(req, res, read, publishedColumnsOf(services, table), id !== undefined || single);
      return;
    }
    const body = await readBody(req, res);
    const locale = await localeOf();
    const actor = rowActor(req);
    const isRowWrite = (id !== undefined || single) && (method === 'PUT' || method === 'PATCH' || method === 'DELETE');
    const condition = isRowWrite ? parseIfMatch(req.headers['if-match']) : null;
    const written = <T>(write: (check?: WriteCheck) => Promise<T>) =>
      conditionally(services, req, table, id as string, condition, write, locale);
    // A write's answer shows the row as a read would, so it matches the ETag it carries.
    const present = (rows: ContentRow[]) =>
      presentRows(services, services.registry.requireByTable(table), rows, 'html', readableBy(req), locale);
    if (single && (method === 'PUT' || method === 'PATCH')) {
      const { status, value, etag } = await writeSingle(services, req, table, body, actor, condition, locale);
      await present([value]);
      if (etag !== null) res.setHeader('ETag', etag);
      if (status === 201) res.setHeader('Location', `/api/cms/${table}/${encodeURIComponent(value.id)}`);
      writeJson(res, status, value);
    } else if (single && method === 'DELETE') {
      throw singleRowType(services.registry.requireByTable(table), 'DELETE');
    } else if (method === 'POST') {
      const created = await createRow(services, table, id, body, actor, locale);
      await present(created.body.rows);
      res.setHeader('Location', created.location);
      writeJson(res, 201, created.body);
    } else if (id !== undefined && (method === 'PUT' || method === 'PATCH')) {
      const { value, etag } = await written((check) => updateRow(services, table, id, body, actor, check, locale));
      await present([value]);
      if (etag !== null) res.setHeader('ETag', etag);
      writeJson(res, 200, value);
    } else if (id !== undefined && method === 'DELETE') {
      const { value: row } = await written((check) =>
        writeWithType(services, table, (type) => {
          if (type.kind === 'single') throw singleRowType(type, 'DELETE');
          return services.rows.delete(type, id, actor, check, locale);
        }),
      );
      const deleted: DeleteRowResponse = { ...row, rowCount: 1 };
      writeJson(res, 200, deleted);
    } else {
      const refusal = (id === undefined ? refuseOnList : refuseOnRow)(req, res);
      if (refusal) throw refusal;
    }
  };
}

/**
 * Runs a row write, under its `If-Match` when it has one (see conditionalRowWrite), which names
 * the row as read in the write's `locale`.
 */
async function conditionally<T>(
  services: Services,
  req: IncomingMessage,
  table: string,
  id: string,
  condition: IfMatch | null,
  write: (check?: WriteCheck) => Promise<T>,
  locale?: RequestLocale,
): Promise<{ value: T; etag: string | null }> {
  if (condition === null) return { value: await write(), etag: null };
  const readable = readableBy(req);
  const read = async (): Promise<CurrentRow> => {
    const { read: found, version } = await readRowVersioned(services, table, id, readable, 'html', locale);
    const { etag } = taggedJsonText(found.body, publishedColumnsOf(services, table), ROW_READ_UNTAGGED);
    return { row: found.body.rows[0], etag, version: version() };
  };
  return conditionalRowWrite(services, { table, id, read }, condition, write);
}

const JSON_TYPE = 'application/json; charset=utf-8';
const NO_CACHE = 'no-cache';

/**
 * A read's 200 (or 304, when `If-None-Match` names its tag) with the security headers, its
 * `Server-Timing`, `ETag` and `Cache-Control: no-cache`, written as one head with the body: node
 * merges it with headers a guard set (CORS), and builds no header map when none did. A single
 * row's tag leaves out its type's counts (see ROW_READ_UNTAGGED).
 */
function answerRead(
  req: IncomingMessage,
  res: ServerResponse,
  read: TimedRead<object>,
  knownColumns: ContentType['publishedColumns'] | undefined,
  oneRow: boolean,
): void {
  const { text, etag } = taggedJsonText(read.body, knownColumns, oneRow ? ROW_READ_UNTAGGED : undefined);
  const head = [...SECURITY_HEADER_LIST, 'Server-Timing', read.serverTiming, 'ETag', etag, 'Cache-Control', NO_CACHE];
  if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
    res.writeHead(304, head);
    res.end();
    return;
  }
  head.push('Content-Type', JSON_TYPE, 'Content-Length', String(Buffer.byteLength(text)));
  res.writeHead(200, head);
  res.end(text);
}

/** The type's published columns, whose JSON a read's body may reuse (see taggedJsonText). */
function publishedColumnsOf(services: Services, table: string): ContentType['publishedColumns'] | undefined {
  try {
    return services.registry.requireByTable(table).publishedColumns;
  } catch {
    return undefined;
  }
}

/**
 * `POST /cms/:type[/:id]`: the new row, for a 201 with its address in `Location`; localized
 * fields written in `locale`.
 */
export async function createRow(
  services: Services,
  table: string,
  id: string | undefined,
  input: unknown,
  actor: RowActor | undefined,
  locale?: RequestLocale,
): Promise<{ body: CreateRowResponse; location: string }> {
  const row = await writeWithType(services, table, (type) => {
    if (type.kind === 'single') throw singleRowType(type, 'POST');
    return services.rows.create(type, input, id, actor, undefined, locale);
  });
  return { body: { id: row.id, rows: [row] }, location: `/api/cms/${table}/${encodeURIComponent(row.id)}` };
}

/** The 409 of a row create or delete on a single type, which always holds its one row. */
function singleRowType(type: ContentType, method: 'POST' | 'DELETE'): AppError {
  return new AppError(
    'single_row_type',
    `${type.title} is a single type: it holds one row, so ${method} of rows is refused; PUT /api/cms/${type.table} changes it`,
  );
}

/**
 * `GET /cms/:type` of a single type: its one row in the single-row read's shape, with its page
 * meta; before the first `PUT` writes it, no row (`rows` empty) and empty meta.
 */
export async function readSingle(
  services: Services,
  table: string,
  readable: readonly string[] | null = null,
  format: RichtextFormat = 'html',
  locale?: RequestLocale,
): Promise<TimedRead<GetRowResponse>> {
  const query = { limit: '1', format, ...(locale ? { locale: localeParameter(locale) } : {}) };
  const { body, serverTiming } = await readList(services, table, query, readable);
  const { titleColumn } = services.registry.requireByTable(table);
  const row = body.rows[0];
  const meta = resolvePageMeta(
    (row ?? {}) as StoredRow,
    row?.meta ?? null,
    titleColumn,
    services.rows.localesDocument.default,
  );
  return { body: { ...body, meta }, serverTiming };
}

/**
 * `PUT`/`PATCH /cms/:type` of a single type: changes its one row (under `If-Match` as a row's
 * write), or creates it (201) when there is none yet; an `If-Match` then is a 412, as for a row gone.
 * Two first writes in parallel make one row: the second, refused, runs again as a change.
 */
async function writeSingle(
  services: Services,
  req: IncomingMessage,
  table: string,
  body: unknown,
  actor: RowActor | undefined,
  condition: IfMatch | null,
  locale: RequestLocale,
): Promise<{ status: 200 | 201; value: UpdateRowResponse; etag: string | null }> {
  for (let attempt = 1; ; attempt++) {
    const id = (await readList(services, table, { limit: '1' })).body.rows[0]?.id;
    if (id !== undefined) {
      const { value, etag } = await conditionally(
        services,
        req,
        table,
        id,
        condition,
        (check) => updateRow(services, table, id, body, actor, check, locale),
        locale,
      );
      return { status: 200, value, etag };
    }
    if (condition !== null) {
      const error = staleWrite();
      error.stale = { current: null, etag: null, lastChange: null };
      throw error;
    }
    try {
      const value = await writeWithType(services, table, (type) =>
        services.rows.create(type, body, undefined, actor, undefined, locale),
      );
      return { status: 201, value, etag: null };
    } catch (error) {
      if (attempt === 1 && error instanceof AppError && error.code === 'single_row_type') continue;
      throw error;
    }
  }
}

/**
 * `PUT`/`PATCH /cms/:type/:id`: the changed row; `check` as `RowService.update` holds it, localized
 * fields written in `locale`.
 */
export function updateRow(
  services: Services,
  table: string,
  id: string,
  input: unknown,
  actor: RowActor | undefined,
  check?: WriteCheck,
  locale?: RequestLocale,
): Promise<UpdateRowResponse> {
  return writeWithType(services, table, (type) =>
    services.rows.update(type, id, input, actor, undefined, check, locale),
  );
}

/** A request locale as its `?locale=` parameter names it. */
function localeParameter(locale: RequestLocale): string {
  return locale.kind === 'all' ? 'all' : locale.code;
}

/**
 * `GET /cms/:type`: a page of rows with exact counts (also the site export's read), as a
 * credential limited to `readable` content types sees it (null: every type; see `hiddenRelations`).
 * `format` in `query` says how `richtext` columns read (see presentRichtext).
 */
export async function readList(
  services: Services,
  table: string,
  query: Record<string, unknown>,
  readable: readonly string[] | null = null,
): Promise<TimedRead<ListResponse>> {
  const { format: rawFormat, ...listQuery } = query;
  const format = parseRichtextFormat(rawFormat);
  const { type, list, timer } = await readWithType(services, table, async (type) => {
    const timer = new PhaseTimer();
    const hidden = hiddenRelations(type, services.registry, readable);
    const options = parseListQuery(type, listQuery, services.registry, hidden, services.locales.document);
    timer.lap('init');
    const list = await services.rows.list(type, options, timer, readable);
    await presentRows(services, type, list.rows, format, readable, options.locale);
    return { type: describedWithout(type, hidden), list, timer, registry: list.registry };
  });
  const time = timer.result();
  return { body: listResponse(type, time, list), serverTiming: PhaseTimer.header(time) };
}

/**
 * `GET /cms/:type/:id`: one row in the list shape plus its page meta, for a credential as
 * `readList`, in `locale` (absent: the default locale).
 */
export async function readRow(
  services: Services,
  table: string,
  id: string,
  readable: readonly string[] | null = null,
  format: RichtextFormat = 'html',
  locale?: RequestLocale,
): Promise<TimedRead<GetRowResponse>> {
  return (await readRowVersioned(services, table, id, readable, format, locale, false)).read;
}

/**
 * `readRow` with the stored row's version the answer shows (see rowVersion), which only a read of
 * the `whole` row has (see RowService.get).
 */
async function readRowVersioned(
  services: Services,
  table: string,
  id: string,
  readable: readonly string[] | null,
  format: RichtextFormat = 'html',
  locale?: RequestLocale,
  whole = true,
): Promise<{ read: TimedRead<GetRowResponse>; version: () => string }> {
  const { type, found, timer } = await readWithType(services, table, async (type) => {
    const timer = new PhaseTimer();
    timer.lap('init');
    const found = await services.rows.get(type, id, { timer, readable, locale, whole });
    await presentRows(services, type, [found.row], format, readable, locale);
    const hidden = hiddenRelations(type, services.registry, readable);
    return { type: describedWithout(type, hidden), found, timer, registry: found.registry };
  });
  const time = timer.result();
  const body: GetRowResponse = {
    ...listResponse(type, time, { rows: [found.row], total: found.total, filtered: 1 }),
    meta: found.pageMeta,
  };
  return { read: { body, serverTiming: PhaseTimer.header(time) }, version: found.version };
}

/**
 * A read's `richtext` columns as its reader sees them: row links at their rows' addresses, in
 * `format`. A linked row's slug is read in `locale`, after fallback, as the row itself would be
 * (absent, or `all`: the default locale's, as relations read theirs).
 */
function presentRows(
  services: Services,
  type: ContentType,
  rows: ContentRow[],
  format: RichtextFormat,
  readable: readonly string[] | null,
  locale?: RequestLocale,
): Promise<void> {
  const linkLocale = locale?.kind === 'one' ? locale : undefined;
  return presentRichtext(type, rows, format, services.registry, readable, async (linked, id) => {
    try {
      const { row } = await services.rows.get(linked, id, { readable, locale: linkLocale });
      const slug = linked.slugColumn === null ? null : row[linked.slugColumn];
      return { slug: typeof slug === 'string' ? slug : null };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }
  });
}

/** The list shape shared by the list and single-row reads, fields in the spec's order. */
function listResponse(type: ContentType, time: Timing, list: RowList): ListResponse {
  return {
    time,
    total: list.total,
    filtered: list.filtered,
    count: list.rows.length,
    pk: 'id',
    rows: list.rows,
    columns: [...type.publishedColumns],
    filters: [],
    preview_path: type.previewPath,
    custom: type.custom,
  };
}
