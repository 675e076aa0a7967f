import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ContentRow, ContentTypeListResponse, ListResponse } from '../../common/api-contract.js';
import { MEDIA_CHANGE_TYPE } from '../../common/change-contract.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import type { ChangeEntry } from '../changes/change-feed.js';
import { MAX_CHANGES_PAGE } from '../changes/change-feed-service.js';
import { type ContentType, summarize } from '../content/content-type.js';
import { MAX_LIMIT } from '../content/list-query.js';
import { AppError } from '../errors/app-error.js';
import { currentDocument, quireVersion } from '../http/describe-routes.js';
import { readList, readRow } from '../http/row-routes.js';
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
  /**
   * Continue the export already in the folder from this change-feed cursor (`''`: from the cursor
   * its index recorded), rewriting only the files of the rows changed since; its own `types` and
   * `publishedOnly` apply, not these.
   */
  since?: string;
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
  /**
   * The media its exported rows name (`/media/...`), found in the store or not: an export `--since`
   * that no change of the type touched keeps the type as it is, these included. Absent from exports
   * written before it was recorded, whose types are then read again.
   */
  media?: string[];
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
  /** The tables asked for (`--type`); empty for every type, new ones included. */
  types: string[];
  /** The change-feed cursor the export has read up to: `quire export --since` continues from it. */
  cursor: string;
}

/** What an export did. */
export interface ExportSummary extends WriteCounts {
  types: number;
  rows: number;
  media: number;
  /** Media paths rows name that the store does not have (not copied). */
  missingMedia: string[];
  /** The change-feed cursor the export reached (recorded in its index). */
  cursor: string;
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
  const previous = await previousIndex(dir);
  const plan = options.since === undefined ? null : await changesSince(services, dir, previous, options.since);
  const asked = plan ? plan.index.types : options.types;
  const publishedOnly = plan ? plan.index.published_only : options.publishedOnly;
  const all = services.registry.list();
  const unknown = options.since === undefined ? asked.filter((table) => !all.some((type) => type.table === table)) : [];
  if (unknown.length > 0) {
    throw new ExportError(
      `no content type ${unknown.join(', ')}; the types are ${all.map((type) => type.table).join(', ')}`,
    );
  }
  // Read before the rows: a change committing meanwhile is read again by the next run, never missed.
  const cursor = plan ? plan.cursor : await services.changes.head();
  const chosen = asked.length === 0 ? all : all.filter((type) => asked.includes(type.table));
  const folder = new ExportFolder(dir);
  const document = await currentDocument(services);
  const names = new Map(document['x-quire-content-types'].map((type) => [type.table, type.name]));

  const exported: ExportedType[] = [];
  const media = new Set<string>();
  let rowCount = 0;
  for (const type of chosen) {
    const stem = portableFileName(type.table, '', { reserved: OWN_STEMS });
    const before = plan?.index.content_types.find((entry) => entry.table === type.table);
    // A type whose rows name an upload replaced or described since is read again whole: its rows'
    // files carry the media library's layout of their images.
    const namesChangedMedia = before?.media?.some((path) => plan?.media.has(path)) ?? false;
    const changed =
      plan && before && !plan.retyped.has(type.table) && !namesChangedMedia
        ? (plan.rows.get(type.table) ?? new Set())
        : null;
    if (changed?.size === 0 && before && Array.isArray(before.media)) {
      // No change touched the type: its files and its entry stay as the last export left them.
      progress(`Exporting ${type.table}: unchanged`);
      folder.keep(before.file);
      for (const file of Object.values(before.row_files)) folder.keep(file);
      for (const path of before.media) media.add(path.slice(MEDIA_URL_PREFIX.length));
      rowCount += before.count;
      exported.push(before);
      continue;
    }
    const typeMedia = new Set<string>();
    let list: ListResponse;
    if (changed && before) {
      progress(`Exporting ${type.table}: ${changed.size} changed rows`);
      list = await patchedList(services, type, dir, before, changed, publishedOnly);
    } else {
      list = await readAll(services, type, publishedOnly, (done) => progress(`Exporting ${type.table}: ${done} rows`));
    }
    const fileNames = portableFileNames(
      list.rows.map((row) => row.id),
      '.json',
    );
    const slugs: Record<string, string> = {};
    // No prototype: an id may be `__proto__`.
    const rowFiles: Record<string, string> = Object.create(null);
    for (const row of list.rows) {
      rowFiles[row.id] = `${stem}/${fileNames.get(row.id)}`;
      // An unchanged row keeps its file unread, unless a name given to another row moved it.
      if (changed && !changed.has(row.id) && before?.row_files[row.id] === rowFiles[row.id]) {
        folder.keep(rowFiles[row.id]);
      } else {
        await folder.writeJson(rowFiles[row.id], row);
      }
      const slug = type.slugColumn === null ? null : row[type.slugColumn];
      if (typeof slug === 'string') slugs[slug] = row.id;
      for (const path of mediaPathsIn(JSON.stringify(row))) typeMedia.add(path);
    }
    for (const path of typeMedia) media.add(path);
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
      media: [...typeMedia].sort().map((path) => `${MEDIA_URL_PREFIX}${path}`),
    });
  }

  const missingMedia: string[] = [];
  const copiedBefore = new Set(plan?.index.media ?? []);
  let copied = 0;
  for (const path of [...media].sort()) {
    progress(`Copying media: ${++copied} of ${media.size}`);
    // One the last export copied stays as it is, unless its file was replaced since (its path stays).
    if (copiedBefore.has(`/media/${path}`) && !plan?.media.has(`/media/${path}`)) {
      folder.keep(`media/${path}`);
      continue;
    }
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
    published_only: publishedOnly,
    content_types: exported,
    media: usedMedia.sort().map((path) => `/media/${path}`),
    files,
    types: [...asked],
    cursor,
  };
  // The index goes last: a run that stops before it leaves the last cursor, so the next run
  // applies the same changes again (each file is replaced whole, never half-written).
  await folder.writeJson(INDEX_FILE, index);
  await folder.removeStale(previous?.files ?? []);
  return {
    ...folder.counts,
    types: exported.length,
    rows: rowCount,
    media: usedMedia.length,
    missingMedia,
    cursor,
  };
}

/** What changed since an export's cursor: the rows of each type, the types changed, the cursor reached. */
interface ChangePlan {
  index: ExportIndex;
  rows: Map<string, Set<string>>;
  retyped: Set<string>;
  /** Uploads kept, replaced, described or deleted since, by `/media/` path. */
  media: Set<string>;
  cursor: string;
}

/** Reads the change feed after `since` (or the index's cursor), in one line when it cannot. */
async function changesSince(
  services: Services,
  dir: string,
  index: ExportIndex | null,
  since: string,
): Promise<ChangePlan> {
  if (!index || typeof index.cursor !== 'string' || !Array.isArray(index.types)) {
    throw new ExportError(
      `${dir} holds no export with a cursor to continue; export it in full first (without --since)`,
    );
  }
  const plan: ChangePlan = {
    index,
    rows: new Map(),
    retyped: new Set(),
    media: new Set(),
    cursor: since || index.cursor,
  };
  for (;;) {
    let changes: ChangeEntry[];
    try {
      ({ changes, next: plan.cursor } = await services.changes.read({ since: plan.cursor, limit: MAX_CHANGES_PAGE }));
    } catch (error) {
      if (error instanceof AppError && error.code === 'cursor_expired') {
        throw new ExportError(
          `the cursor is older than the changes kept (${services.changes.days} days); export in full (without --since)`,
        );
      }
      if (error instanceof AppError && error.code === 'bad_cursor') {
        throw new ExportError(
          `${since || index.cursor} is not a cursor of this database; export in full (without --since)`,
        );
      }
      throw error;
    }
    for (const change of changes) {
      if (change.action === 'type_change') plan.retyped.add(change.type);
      else if (change.type === MEDIA_CHANGE_TYPE) plan.media.add(change.id);
      else {
        const ids = plan.rows.get(change.type) ?? new Set<string>();
        plan.rows.set(change.type, ids.add(change.id));
      }
    }
    if (changes.length < MAX_CHANGES_PAGE) return plan;
  }
}

/**
 * A type's list as the last export wrote it, with the `changed` rows read again: each replaced,
 * added in id order, or left out when deleted (or no longer published, with `publishedOnly`).
 */
async function patchedList(
  services: Services,
  type: ContentType,
  dir: string,
  before: ExportedType,
  changed: ReadonlySet<string>,
  publishedOnly: boolean,
): Promise<ListResponse> {
  let list: ListResponse;
  try {
    list = JSON.parse(await readFile(join(dir, before.file), 'utf8')) as ListResponse;
  } catch {
    throw new ExportError(`${join(dir, before.file)} is missing or unreadable; export in full (without --since)`);
  }
  const published = publishedOnly && type.columnsByName.get('status')?.type === 'select';
  const current = new Map<string, ContentRow>();
  for (const id of changed) {
    const row = await currentRow(services, type.table, id);
    if (row && (!published || row.status === 'published')) current.set(id, row);
  }
  // A row read again keeps its place; a new one goes where id order puts it.
  const rows = list.rows.flatMap((row) => (changed.has(row.id) ? (current.get(row.id) ?? []) : [row]));
  const listed = new Set(rows.map((row) => row.id));
  for (const row of current.values()) {
    if (listed.has(row.id)) continue;
    const at = rows.findIndex((other) => other.id > row.id);
    rows.splice(at < 0 ? rows.length : at, 0, row);
  }
  // `total` counts every row of the type, those the export leaves out included.
  const { total } = (await readList(services, type.table, { limit: '1' })).body;
  return { ...list, total, filtered: rows.length, count: rows.length, rows };
}

/** A row as its read answers it; null when it is gone. */
async function currentRow(services: Services, table: string, id: string): Promise<ContentRow | null> {
  try {
    return (await readRow(services, table, id)).body.rows[0] ?? null;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** The index of the export already in `dir` (null when there is no readable one). */
async function previousIndex(dir: string): Promise<ExportIndex | null> {
  try {
    const index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')) as ExportIndex;
    if (index.format !== 'quire-export' || !Array.isArray(index.files)) return null;
    return { ...index, files: index.files.filter((file): file is string => typeof file === 'string') };
  } catch {
    return null;
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
