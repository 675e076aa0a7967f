import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentRow, ContentTypeListResponse, ListResponse } from '../../common/api-contract.js';
import { type ContentType, summarize } from '../content/content-type.js';
import { MAX_LIMIT } from '../content/list-query.js';
import { currentDocument, quireVersion } from '../http/describe-routes.js';
import { readList } from '../http/row-routes.js';
import type { Services } from '../http/services.js';
import { mediaPathsIn } from '../media/media-references.js';
import type { MediaStore } from '../media/media-store.js';
import { typeScriptDeclarations } from '../types-gen/types-generator.js';
import { ExportError, ExportFolder, type WriteCounts } from './export-files.js';
import { portableFileName, portableFileNames } from './file-name-rules.js';

export { ExportError };

/** The name of an export's index file, which also lists its files for the next run. */
export const INDEX_FILE = 'index.json';

/** What to export. */
export interface ExportOptions {
  /** Tables to export (all when empty). */
  types: readonly string[];
  /** Only rows whose `status` is `published` (types without a status column: every row). */
  publishedOnly: boolean;
  /** Told what is being done, for a progress line. */
  progress?: (line: string) => void;
}

/** One content type in an export's index. */
export interface ExportedType {
  table: string;
  slug: string;
  title: string;
  /** The TypeScript name of its rows in types.d.ts (`News`, `Article`). */
  name: string;
  /** The file with every exported row, in the list endpoint's shape (`<table>.json`). */
  file: string;
  /** The folder with one file per row (`<table>/`). */
  rows: string;
  /**
   * Each exported row's id to its file, relative to the export (`news/<id>.json`). A file is named
   * by its id made safe on every file system (see file-name-rules.ts): usually the id itself.
   */
  row_files: Record<string, string>;
  count: number;
  /** Each exported row's slug (its first slug column) to its id, for page routes. */
  slugs: Record<string, string>;
}

/** The index of an export (`index.json`). */
export interface ExportIndex {
  format: 'quire-export';
  version: 1;
  quire: string;
  published_only: boolean;
  content_types: ExportedType[];
  /** Every media file used by the exported rows, as `/media/...` paths (copied under media/). */
  media: string[];
  /** Every file of the export, for the next run to remove what is no longer there. */
  files: string[];
}

/** What an export did. */
export interface ExportSummary extends WriteCounts {
  types: number;
  rows: number;
  media: number;
  /** Media paths rows name that the store does not have (not copied). */
  missingMedia: string[];
}

/** Stems of the export's own files a type's could meet (`index.json`, `openapi.json`, `media/`). */
const OWN_STEMS: ReadonlySet<string> = new Set(['index', 'openapi', 'media']);

/**
 * Writes a site's content as JSON files a static build can read without a server: `index.json`,
 * `content-types.json`, `openapi.json`, `types.d.ts`, one `<table>.json` per type (every row, in
 * the list endpoint's shape), one `<table>/<id>.json` per row and `media/...` for the media the
 * rows use. File names are made safe and unique on every file system (file-name-rules.ts), so a
 * few differ from the id or table; the index maps each to its file. Files whose content is
 * unchanged are left alone; files of the previous export that are gone are removed.
 */
export async function exportSite(
  services: Services,
  store: MediaStore | null,
  dir: string,
  options: ExportOptions,
): Promise<ExportSummary> {
  const progress = options.progress ?? (() => {});
  const all = services.registry.list();
  const unknown = options.types.filter((table) => !all.some((type) => type.table === table));
  if (unknown.length > 0) {
    throw new ExportError(
      `no content type ${unknown.join(', ')}; the types are ${all.map((type) => type.table).join(', ')}`,
    );
  }
  const chosen = options.types.length === 0 ? all : all.filter((type) => options.types.includes(type.table));
  const folder = new ExportFolder(dir);
  const previous = await previousFiles(dir);
  const document = await currentDocument(services);
  const names = new Map(document['x-quire-content-types'].map((type) => [type.table, type.name]));

  const exported: ExportedType[] = [];
  const media = new Set<string>();
  let rowCount = 0;
  for (const type of chosen) {
    const list = await readAll(services, type, options.publishedOnly, (done) =>
      progress(`Exporting ${type.table}: ${done} rows`),
    );
    const stem = portableFileName(type.table, '', { reserved: OWN_STEMS });
    const fileNames = portableFileNames(
      list.rows.map((row) => row.id),
      '.json',
    );
    const slugs: Record<string, string> = {};
    // No prototype: an id may be `__proto__`.
    const rowFiles: Record<string, string> = Object.create(null);
    for (const row of list.rows) {
      rowFiles[row.id] = `${stem}/${fileNames.get(row.id)}`;
      await folder.writeJson(rowFiles[row.id], row);
      const slug = type.slugColumn === null ? null : row[type.slugColumn];
      if (typeof slug === 'string') slugs[slug] = row.id;
      for (const path of mediaPathsIn(JSON.stringify(row))) media.add(path);
    }
    await folder.writeJson(`${stem}.json`, list);
    rowCount += list.rows.length;
    exported.push({
      table: type.table,
      slug: type.slug,
      title: type.title,
      name: names.get(type.table) ?? type.table,
      file: `${stem}.json`,
      rows: `${stem}/`,
      row_files: rowFiles,
      count: list.rows.length,
      slugs,
    });
  }

  const missingMedia: string[] = [];
  let copied = 0;
  for (const path of [...media].sort()) {
    progress(`Copying media: ${++copied} of ${media.size}`);
    const found = store ? await store.find(path) : null;
    if (!found) {
      missingMedia.push(`/media/${path}`);
      continue;
    }
    await folder.write(`media/${path}`, 'file' in found ? await readFile(found.file) : found.bytes);
  }

  const types: ContentTypeListResponse = { count: chosen.length, content_types: chosen.map(summarize) };
  await folder.writeJson('content-types.json', types);
  await folder.writeJson('openapi.json', document);
  await folder.write('types.d.ts', typeScriptDeclarations(document));
  const usedMedia = [...media].filter((path) => !missingMedia.includes(`/media/${path}`));
  const files = [...folder.files, INDEX_FILE].sort();
  const index: ExportIndex = {
    format: 'quire-export',
    version: 1,
    quire: quireVersion(),
    published_only: options.publishedOnly,
    content_types: exported,
    media: usedMedia.sort().map((path) => `/media/${path}`),
    files,
  };
  await folder.writeJson(INDEX_FILE, index);
  await folder.removeStale(previous);
  return {
    ...folder.counts,
    types: exported.length,
    rows: rowCount,
    media: usedMedia.length,
    missingMedia,
  };
}

/** The files the export already in `dir` listed (none when there is no readable index). */
async function previousFiles(dir: string): Promise<string[]> {
  try {
    const index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')) as Partial<ExportIndex>;
    if (index.format !== 'quire-export' || !Array.isArray(index.files)) return [];
    return index.files.filter((file): file is string => typeof file === 'string');
  } catch {
    return [];
  }
}

/**
 * Every row of a type (or every published one) in the list endpoint's shape, read page by page in
 * id order. `time` is zero (the file is not one read) so an unchanged site writes unchanged files.
 */
async function readAll(
  services: Services,
  type: ContentType,
  publishedOnly: boolean,
  progress: (done: number) => void,
): Promise<ListResponse> {
  const published = publishedOnly && type.columnsByName.get('status')?.type === 'select';
  const rows: ContentRow[] = [];
  let first: ListResponse | null = null;
  for (;;) {
    const query: Record<string, unknown> = { limit: String(MAX_LIMIT), offset: String(rows.length), order: 'id' };
    if (published) query.filter = 'status=published';
    const { body } = await readList(services, type.table, query);
    first ??= body;
    rows.push(...body.rows);
    progress(rows.length);
    if (body.rows.length < MAX_LIMIT) break;
  }
  const time = { total: 0, init: 0, filter: 0, data: 0, count: 0, format: 0 };
  return { ...(first as ListResponse), time, filtered: rows.length, count: rows.length, rows };
}
