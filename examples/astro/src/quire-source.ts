/**
 * Where the site's content comes from: a running Quire server (QUIRE_URL, default
 * http://127.0.0.1:4780, with QUIRE_TOKEN when the server needs one), or a folder written by
 * `quire export` (QUIRE_EXPORT), so the site also builds in CI where no Quire runs.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Collections } from './quire-types';

/** A content type's table name (`news`, `articles`). */
export type Table = keyof Collections & string;

const exportDir = process.env.QUIRE_EXPORT;
const api = `${(process.env.QUIRE_URL || 'http://127.0.0.1:4780').replace(/\/$/, '')}/api`;
const headers: Record<string, string> = process.env.QUIRE_TOKEN
  ? { Authorization: `Bearer ${process.env.QUIRE_TOKEN}` }
  : {};

/** Where the rows are read from, for log lines. */
export const sourceName = exportDir ? `the export in ${exportDir}` : api;

/**
 * Every published row of a type (a type without a `status` column: every row). From a server, page
 * by page, asking it for the published rows only; from an export, its `<table>.json`.
 */
export async function publishedRows<T extends Table>(table: T): Promise<Collections[T]['row'][]> {
  let rows: Collections[T]['row'][];
  if (exportDir) {
    const list: Collections[T]['list'] = JSON.parse(await readFile(join(exportDir, `${table}.json`), 'utf8'));
    rows = list.rows as Collections[T]['row'][];
  } else {
    const types = await getJson<{ content_types: { table: string; columns: { name: string }[] }[] }>('/cms-content');
    const hasStatus = types.content_types.some(
      (type) => type.table === table && type.columns.some((column) => column.name === 'status'),
    );
    rows = [];
    for (;;) {
      const filter = hasStatus ? '&filter=status=published' : '';
      const list = await getJson<Collections[T]['list']>(`/cms/${table}?limit=1000&offset=${rows.length}${filter}`);
      rows.push(...(list.rows as Collections[T]['row'][]));
      if (list.rows.length < 1000) break;
    }
  }
  return rows.filter((row) => !('status' in row) || row.status === 'published');
}

/** The bytes of an uploaded file, by its `/media/...` path. */
export async function mediaFile(path: string): Promise<Uint8Array> {
  if (exportDir) return readFile(join(exportDir, ...path.split('/').filter(Boolean)));
  const response = await fetch(`${api.slice(0, -'/api'.length)}${path}`, { headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} from Quire`);
  return new Uint8Array(await response.arrayBuffer());
}

async function getJson<T>(path: string): Promise<T> {
  const response = await fetch(`${api}${path}`, { headers });
  if (!response.ok) throw new Error(`GET ${api}${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}
