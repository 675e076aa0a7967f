import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentRow } from '../../common/api-contract.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import { mediaPathsIn } from '../media/media-references.js';
import { ExportError, type ExportFolder } from './export-files.js';
import { nameHash, portableFileNames } from './file-name-rules.js';

/**
 * A type's rows in a version-2 export: spread over `page_count` pages (`<table>/pages/<n>.json`),
 * each row on the page a hash of its id picks, so saving a row rewrites its own file and one page,
 * whatever the type's size. The same hash ends the file names file-name-rules.ts gives ids it has
 * to change, so two names that could meet are always on one page and a page settles its own names.
 */

/** Rows a page holds on average when a type is paged (or paged again), unless the export says otherwise. */
export const ROWS_PER_PAGE = 256;

/** One page of a type's rows (`<table>/pages/<n>.json`). */
export interface ExportPage {
  /** The page's rows as a row's read answers them, in id order (JavaScript's string order). */
  rows: ContentRow[];
  /**
   * The file of each row of the page whose file is not `<table>/<id>.json`, relative to the export:
   * ids that are not safe file names on every file system (see file-name-rules.ts).
   */
  files: Record<string, string>;
  /** The media the page's rows name (`/media/...`), sorted. */
  media: string[];
}

/** Where a type's pages are, and how many. */
export interface PagedType {
  /** The folder of the type's row files (`news/`). */
  rows: string;
  /** The folder of its pages (`news/pages/`). */
  pages: string;
  page_count: number;
}

/** The page count for a type of `count` rows: a power of two, about `rowsPerPage` rows a page. */
export function pageCountFor(count: number, rowsPerPage = ROWS_PER_PAGE): number {
  let pages = 1;
  while (pages * rowsPerPage < count) pages *= 2;
  return pages;
}

/**
 * The page count a type of `count` rows keeps from `current`: the same until its pages hold on
 * average twice or a quarter of ROWS_PER_PAGE, so a type growing or shrinking row by row is paged
 * again only after it doubled or fell to a quarter.
 */
export function nextPageCount(current: number, count: number, rowsPerPage = ROWS_PER_PAGE): number {
  if (count > current * rowsPerPage * 2) return pageCountFor(count, rowsPerPage);
  if (current > 1 && count < (current * rowsPerPage) / 4) return pageCountFor(count, rowsPerPage);
  return current;
}

/** The page of `pageCount` that holds the row `id`: from the first 32 bits of the id's name hash. */
export function pageOf(id: string, pageCount: number): number {
  return Number.parseInt(nameHash(id).slice(0, 8), 16) % pageCount;
}

/** The path of page `page` of a type, relative to the export. */
export const pagePath = (type: Pick<PagedType, 'pages'>, page: number): string => `${type.pages}${page}.json`;

/** Each row's file on a page, relative to the export (every id, not only the exceptions). */
export function pageFiles(type: Pick<PagedType, 'rows'>, ids: readonly string[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const [id, name] of portableFileNames(ids, '.json')) files.set(id, `${type.rows}${name}`);
  return files;
}

/** Reads page `page` of a type as the last export wrote it. */
export async function readPage(dir: string, type: PagedType, page: number): Promise<ExportPage> {
  const segments = pagePath(type, page).split('/');
  const path = join(dir, ...segments);
  try {
    if (segments.some((segment) => ['', '.', '..'].includes(segment))) throw new Error();
    const read = JSON.parse(await readFile(path, 'utf8')) as ExportPage;
    if (!Array.isArray(read.rows) || typeof read.files !== 'object' || !Array.isArray(read.media)) throw new Error();
    return read;
  } catch {
    throw new ExportError(`${path} is missing or unreadable; export in full (without --since)`);
  }
}

/** Every file of a type's pages and rows as the last export wrote them, for removing what is gone. */
export async function typeFiles(dir: string, type: PagedType): Promise<string[]> {
  const files: string[] = [];
  for (let page = 0; page < type.page_count; page++) {
    files.push(pagePath(type, page));
    const { rows } = await readPage(dir, type, page);
    files.push(
      ...pageFiles(
        type,
        rows.map((row) => row.id),
      ).values(),
    );
  }
  return files;
}

/**
 * Writes the pages `rowsByPage` gives (page number to its rows, in any order) and the row files
 * they need: every row in `rewrite` (null: every row) and any whose file name changed from what
 * `previous` (the page's rows last time) gave it. Files of rows the previous pages held that these
 * do not are added to `stale`. Adds each page's media to `media` and takes the previous pages'
 * away.
 */
export async function writePages(
  folder: ExportFolder,
  type: PagedType,
  rowsByPage: ReadonlyMap<number, ContentRow[]>,
  previous: ReadonlyMap<number, ExportPage>,
  rewrite: ReadonlySet<string> | null,
  media: Map<string, number>,
  stale: string[],
): Promise<void> {
  for (const [page, unsorted] of rowsByPage) {
    const rows = [...unsorted].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const files = pageFiles(
      type,
      rows.map((row) => row.id),
    );
    const before = previous.get(page);
    const filesBefore = before
      ? pageFiles(
          type,
          before.rows.map((row) => row.id),
        )
      : new Map<string, string>();
    // No prototype: an id may be `__proto__`.
    const exceptions: Record<string, string> = Object.create(null);
    const pageMedia = new Set<string>();
    for (const row of rows) {
      const file = files.get(row.id) as string;
      if (file !== `${type.rows}${row.id}.json`) exceptions[row.id] = file;
      if (rewrite === null || rewrite.has(row.id) || filesBefore.get(row.id) !== file) {
        await folder.writeJson(file, row);
      }
      for (const path of mediaPathsIn(JSON.stringify(row))) pageMedia.add(`${MEDIA_URL_PREFIX}${path}`);
    }
    const kept = new Set(files.values());
    for (const file of filesBefore.values()) if (!kept.has(file)) stale.push(file);
    for (const path of before?.media ?? []) count(media, path, -1);
    for (const path of pageMedia) count(media, path, 1);
    const written: ExportPage = { rows, files: exceptions, media: [...pageMedia].sort() };
    await folder.writeJson(pagePath(type, page), written);
  }
}

function count(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}
