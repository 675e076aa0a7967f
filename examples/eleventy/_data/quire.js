/**
 * Global data `quire`: the published rows of each content type, from a running Quire server
 * (QUIRE_URL, default http://127.0.0.1:4780, with QUIRE_TOKEN when the server needs one) or from a
 * folder written by `quire export` (QUIRE_EXPORT), so the site also builds where no Quire runs.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

const exportDir = process.env.QUIRE_EXPORT;
const origin = (process.env.QUIRE_URL || 'http://127.0.0.1:4780').replace(/\/$/, '');
const headers = process.env.QUIRE_TOKEN ? { Authorization: `Bearer ${process.env.QUIRE_TOKEN}` } : {};

async function getJson(path) {
  const response = await fetch(`${origin}/api${path}`, { headers });
  if (!response.ok) throw new Error(`GET ${origin}/api${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** Every published row of a type (a type without a `status` column: every row). */
async function publishedRows(table, hasStatus) {
  let rows;
  if (exportDir) {
    rows = JSON.parse(await readFile(join(exportDir, `${table}.json`), 'utf8')).rows;
  } else {
    rows = [];
    for (;;) {
      const filter = hasStatus ? '&filter=status=published' : '';
      const list = await getJson(`/cms/${table}?limit=1000&offset=${rows.length}${filter}`);
      rows.push(...list.rows);
      if (list.rows.length < 1000) break;
    }
  }
  return rows.filter((row) => !('status' in row) || row.status === 'published');
}

export default async function () {
  const { content_types: types } = exportDir
    ? JSON.parse(await readFile(join(exportDir, 'content-types.json'), 'utf8'))
    : await getJson('/cms-content');
  const data = { source: exportDir ? `the export in ${exportDir}` : origin };
  for (const type of types) {
    data[type.table] = await publishedRows(
      type.table,
      type.columns.some((column) => column.name === 'status'),
    );
  }
  return data;
}
