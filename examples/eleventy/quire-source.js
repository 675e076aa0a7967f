/**
 * Where the site's content comes from: a running Quire server (QUIRE_URL, default
 * http://127.0.0.1:4780, with QUIRE_TOKEN when the server needs one), or a folder written by
 * `quire export` (QUIRE_EXPORT), so the site also builds where no Quire runs. QUIRE_TYPES (tables
 * or slugs, comma-separated) picks the content types to build; by default, every one.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The export folder the site reads (QUIRE_EXPORT), or undefined when it reads a server. */
export const exportDir = process.env.QUIRE_EXPORT;
/** The Quire server the site reads (QUIRE_URL), without a trailing slash. */
export const origin = (process.env.QUIRE_URL || 'http://127.0.0.1:4780').replace(/\/$/, '');
const headers = process.env.QUIRE_TOKEN ? { Authorization: `Bearer ${process.env.QUIRE_TOKEN}` } : {};
const PAGE = 1000;
let indexRead;

/** Where the rows are read from, for messages. */
export const sourceName = exportDir ? `the export in ${exportDir}` : `${origin}/api`;

/** Whether a type is the one a name means: its table (the :type of /api/cms/:type) or its slug. */
export const matches = (type, name) => type.table === name || type.slug === name;

/** The content types the site builds: the ones QUIRE_TYPES names, else every type there is. */
export async function contentTypes() {
  const list = exportDir ? await readJson('content-types.json') : await getJson('/cms-content');
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
}

/** Whether a type has columns with a value per locale (read with `?locale=all`). */
export const isLocalized = (type) => type.columns.some((column) => column.localized);

/**
 * Every published row of a type (a type without a `status` column: every row), with every
 * locale's values of its localized columns. From a server, page by page, asking it for the
 * published rows only; from an export, the pages its index names.
 */
export async function publishedRows(type) {
  const hasStatus = type.columns.some((column) => column.name === 'status');
  let rows;
  if (exportDir) {
    rows = await exportedRows(type);
  } else {
    rows = [];
    const filter = `${hasStatus ? '&filter=status=published' : ''}${isLocalized(type) ? '&locale=all' : ''}`;
    for (;;) {
      const list = await getJson(`/cms/${type.table}?limit=${PAGE}&offset=${rows.length}${filter}`);
      rows.push(...list.rows);
      if (list.rows.length < PAGE) break;
    }
  }
  return hasStatus ? rows.filter((row) => row.status === 'published') : rows;
}

/** The bytes of an uploaded file, by its `/media/...` path. */
export async function mediaFile(path) {
  if (exportDir) return readFile(join(exportDir, ...path.split('/').filter(Boolean)));
  const response = await fetch(`${origin}${path}`, { headers });
  if (!response.ok) throw new Error(`${path}: ${response.status} from Quire`);
  return Buffer.from(await response.arrayBuffer());
}

/**
 * A type's rows in the export, in id order: its entry in `index.json` names the folder of its pages
 * (`pages`, `news/pages/`) and how many there are (`page_count`); each page holds some of its rows.
 */
async function exportedRows(type) {
  const index = await exportIndex();
  const entry = index.content_types.find((candidate) => candidate.table === type.table);
  if (!entry) throw new Error(`${type.table} is not in the index.json of ${sourceName}`);
  const pages = await Promise.all(
    Array.from({ length: entry.page_count }, (_, page) => readJson(`${entry.pages}${page}.json`)),
  );
  return pages.flatMap((page) => page.rows).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The export's `index.json` (read once), of the format this site reads: where each type's pages
 * are, and, when a type has localized columns, the site's `locales` and the one `locale` its rows
 * were read in (none: every locale at once).
 */
export function exportIndex() {
  indexRead ??= readJson('index.json').then((index) => {
    if (index.version !== 2) {
      throw new Error(`${sourceName} is an export of format version ${index.version}; export it again with this Quire`);
    }
    return index;
  });
  return indexRead;
}

async function readJson(file) {
  return JSON.parse(await readFile(join(exportDir, file), 'utf8'));
}

/** A GET of the server's API, as JSON. */
export async function getJson(path) {
  const response = await fetch(`${origin}/api${path}`, { headers });
  if (!response.ok) throw new Error(`GET ${origin}/api${path}: ${response.status} ${await response.text()}`);
  return response.json();
}
