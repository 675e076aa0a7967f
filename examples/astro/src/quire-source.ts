/**
 * Where the site's content comes from: a running Quire server (QUIRE_URL, default
 * http://127.0.0.1:4780, with QUIRE_TOKEN when the server needs one), or a folder written by
 * `quire export` (QUIRE_EXPORT), so the site also builds in CI where no Quire runs. QUIRE_TYPES
 * (tables or slugs, comma-separated) picks the content types to build; by default, every one.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentRow, ContentTypeListResponse, ContentTypeSummary, LocalesDocument } from './quire-types';

/** What GET /api/cms/:type answers (and a page of a type in an export holds), as far as the site reads it. */
interface ListResponse {
  rows: ContentRow[];
}

/**
 * An export's `index.json`, as far as the site reads it: where each type's pages are, and, when a
 * type has localized columns, the site's locales and the one locale its rows were read in (none:
 * every locale at once).
 */
export interface ExportIndex {
  version: number;
  content_types: { table: string; pages: string; page_count: number }[];
  locales?: LocalesDocument;
  locale?: string;
}

/** The export folder the site reads (QUIRE_EXPORT), or undefined when it reads a server. */
export const exportDir = process.env.QUIRE_EXPORT;
/** The Quire server the site reads (QUIRE_URL), without a trailing slash. */
export const origin = (process.env.QUIRE_URL || 'http://127.0.0.1:4780').replace(/\/$/, '');
const headers: Record<string, string> = process.env.QUIRE_TOKEN
  ? { Authorization: `Bearer ${process.env.QUIRE_TOKEN}` }
  : {};
const PAGE = 1000;

/** Where the rows are read from, for log lines. */
export const sourceName = exportDir ? `the export in ${exportDir}` : `${origin}/api`;

let typesRead: Promise<ContentTypeSummary[]> | undefined;
let indexRead: Promise<ExportIndex> | undefined;

/** The content types the site builds: the ones QUIRE_TYPES names, else every type there is. */
export function contentTypes(): Promise<ContentTypeSummary[]> {
  typesRead ??= (async () => {
    const list = exportDir
      ? await readJson<ContentTypeListResponse>('content-types.json')
      : await getJson<ContentTypeListResponse>('/cms-content');
    const wanted = (process.env.QUIRE_TYPES ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean);
    if (wanted.length === 0) return list.content_types;
    const unknown = wanted.filter((name) => !list.content_types.some((type) => matches(type, name)));
    if (unknown.length > 0) {
      const known = list.content_types.map((type) => type.table).join(', ');
      throw new Error(`QUIRE_TYPES names no content type ${unknown.join(', ')} in ${sourceName}; there are: ${known}`);
    }
    return list.content_types.filter((type) => wanted.some((name) => matches(type, name)));
  })();
  return typesRead;
}

/** Whether a type is the one a name means: its table (the :type of /api/cms/:type) or its slug. */
export const matches = (type: ContentTypeSummary, name: string) => type.table === name || type.slug === name;

/** Whether a type has columns with a value per locale (read with `?locale=all`). */
export const isLocalized = (type: ContentTypeSummary): boolean => type.columns.some((column) => column.localized);

/** The parameter asking for every locale's values (`locale=all`), for a type with localized columns. */
const allLocales = (type: ContentTypeSummary, join: '?' | '&') => (isLocalized(type) ? `${join}locale=all` : '');

/**
 * Every published row of a type (a type without a `status` column: every row), with every
 * locale's values of its localized columns. From a server, page by page, asking it for the
 * published rows only; from an export, the pages its index names.
 */
export async function publishedRows(type: ContentTypeSummary): Promise<ContentRow[]> {
  const hasStatus = type.columns.some((column) => column.name === 'status');
  let rows: ContentRow[];
  if (exportDir) {
    rows = await exportedRows(type);
  } else {
    rows = [];
    const filter = `${hasStatus ? '&filter=status=published' : ''}${allLocales(type, '&')}`;
    for (;;) {
      const list = await getJson<ListResponse>(`/cms/${type.table}?limit=${PAGE}&offset=${rows.length}${filter}`);
      rows.push(...list.rows);
      if (list.rows.length < PAGE) break;
    }
  }
  return hasStatus ? rows.filter((row) => row.status === 'published') : rows;
}

/** One change of the feed (`GET /api/changes`), as far as the site reads it. */
export interface FeedChange {
  cursor: string;
  type: string;
  id: string;
  action: 'create' | 'update' | 'delete' | 'restore' | 'type_change' | 'media';
}

/** Whether the site reads a server, whose change feed an incremental sync can follow (not an export). */
export const followsFeed = !exportDir;

/**
 * The changes of the types the site builds after `since` (`'0'`: all that are kept), page by page
 * to the newest, and the cursor reached; null when the cursor is older than what the server keeps
 * (410): then everything is read again.
 */
export async function changesSince(since: string): Promise<{ changes: FeedChange[]; cursor: string } | null> {
  const types = (await contentTypes()).map((type) => type.table).join(',');
  const changes: FeedChange[] = [];
  let cursor = since;
  for (;;) {
    const path = `/changes?since=${encodeURIComponent(cursor)}&limit=${PAGE}&types=${encodeURIComponent(types)}`;
    const response = await fetch(`${origin}/api${path}`, { headers });
    if (response.status === 410) return null;
    if (!response.ok) throw new Error(`GET ${origin}/api${path}: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { changes: FeedChange[]; next: string };
    changes.push(...page.changes);
    cursor = page.next;
    if (page.changes.length < PAGE) return { changes, cursor };
  }
}

/** A row of a type as the server has it now, when it is published (or the type has no status); null otherwise. */
export async function publishedRow(type: ContentTypeSummary, id: string): Promise<ContentRow | null> {
  const path = `/cms/${type.table}/${encodeURIComponent(id)}${allLocales(type, '?')}`;
  const response = await fetch(`${origin}/api${path}`, { headers });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`GET ${origin}/api/cms/${type.table}/${id}: ${response.status}`);
  const row = ((await response.json()) as ListResponse).rows[0];
  const hasStatus = type.columns.some((column) => column.name === 'status');
  return row && (!hasStatus || row.status === 'published') ? row : null;
}

/** The server's event stream (`GET /api/events`): one `event: change` block a committed change. */
export function serverEvents(signal: AbortSignal): Promise<Response> {
  return fetch(`${origin}/api/events`, { headers: { ...headers, Accept: 'text/event-stream' }, signal });
}

/** The bytes of an uploaded file, by its `/media/...` path. */
export async function mediaFile(path: string): Promise<Uint8Array> {
  if (exportDir) return readFile(join(exportDir, ...path.split('/').filter(Boolean)));
  const response = await fetch(`${origin}${path}`, { headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} from Quire`);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * A type's rows in the export, in id order: its entry in `index.json` names the folder of its pages
 * (`pages`, `news/pages/`) and how many there are (`page_count`); each page holds some of its rows.
 */
async function exportedRows(type: ContentTypeSummary): Promise<ContentRow[]> {
  const index = await exportIndex();
  const entry = index.content_types.find((candidate) => candidate.table === type.table);
  if (!entry) throw new Error(`${type.table} is not in the index.json of ${sourceName}`);
  const pages = await Promise.all(
    Array.from({ length: entry.page_count }, (_, page) => readJson<ListResponse>(`${entry.pages}${page}.json`)),
  );
  return pages.flatMap((page) => page.rows).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The export's `index.json` (read once), of the format this site reads. */
export function exportIndex(): Promise<ExportIndex> {
  indexRead ??= readJson<ExportIndex>('index.json').then((index) => {
    if (index.version !== 2) {
      throw new Error(`${sourceName} is an export of format version ${index.version}; export it again with this Quire`);
    }
    return index;
  });
  return indexRead;
}

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(join(exportDir as string, file), 'utf8')) as T;
}

/** A GET of the server's API, as JSON. */
export async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${origin}/api${path}`, { headers });
  if (!response.ok) throw new Error(`GET ${origin}/api${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
