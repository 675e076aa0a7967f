import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ContentRow, ContentTypeListResponse } from '../../common/api-contract.js';
import { MEDIA_CHANGE_TYPE } from '../../common/change-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import type { ChangeEntry } from '../changes/change-feed.js';
import { MAX_CHANGES_PAGE } from '../changes/change-feed-service.js';
import { type ContentType, summarize } from '../content/content-type.js';
import { MAX_LIMIT } from '../content/list-query.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { currentDocument, quireVersion } from '../http/describe-routes.js';
import { readList, readRow } from '../http/row-routes.js';
import type { Services } from '../http/services.js';
import { parseLocaleParameter, type RequestLocale } from '../locales/locale-parameter.js';
import { localizedColumnsOf } from '../locales/localized-values.js';
import type { MediaStore } from '../media/media-store.js';
import { typeScriptDeclarations } from '../types-gen/types-generator.js';
import { ExportError, ExportFolder, type WriteCounts } from './export-files.js';
import { type ImageVariantSettings, recordedVariantSettings, writeImageVariants } from './export-image-variants.js';
import {
  type ExportPage,
  nextPageCount,
  type PagedType,
  pageCountFor,
  pageFiles,
  pageOf,
  pagePath,
  readPage,
  typeFiles,
  writePages,
} from './export-pages.js';
import { portableFileName } from './file-name-rules.js';

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
  /**
   * The image variants to write beside the media, each with its manifest (`media/<path>.json`, see
   * export-image-variants.ts): widths and formats. Left out or null, none, and an earlier export's
   * are removed. Continuing (`since`), the settings the export recorded apply, not these, and only
   * variants of new or replaced images are made.
   */
  images?: ImageVariantSettings | null;
  /** The site's database, where the manifests' alt text and focal points are read (the media library). */
  library: Kysely<QuireDatabase>;
  /**
   * The locale rows are read in (a code the site lists): each localized field after its fallback
   * chain, with `locale` and `fallbacks`. Left out: every locale at once, each localized field an
   * object of every locale's own value (as `?locale=all` reads). Types without localized columns
   * read alike either way. Continuing (`since`), the locale the export recorded applies.
   */
  locale?: string;
  /**
   * Rows a page holds on average (`ROWS_PER_PAGE` when left out): tests cross the paging thresholds
   * with tens of rows rather than hundreds. Not recorded: every run in a folder must use the same.
   */
  rowsPerPage?: number;
}

/** One content type in an export's index. */
export interface ExportedType extends PagedType {
  table: string;
  slug: string;
  title: string;
  /** The TypeScript name of its rows in types.d.ts (`News`, `Article`). */
  name: string;
  count: number;
  /** The column whose value is a row's slug (its first slug column), null when it has none. */
  slug_column: string | null;
  /**
   * The media its exported rows name (`/media/...`), each with the number of its pages naming it, so
   * a run that rewrites a few pages keeps the list without reading the others.
   */
  media_pages: Record<string, number>;
}

/** The index of an export (`index.json`): small, whatever the number of rows. */
export interface ExportIndex {
  format: 'quire-export';
  version: 2;
  quire: string;
  published_only: boolean;
  content_types: ExportedType[];
  /** Every media file used by the exported rows, as `/media/...` paths (copied under media/). */
  media: string[];
  /** The tables asked for (`--type`); empty for every type, new ones included. */
  types: string[];
  /** The change-feed cursor the export has read up to: `quire export --since` continues from it. */
  cursor: string;
  /** The locale the rows were read in (`--locale`); absent: every locale at once. */
  locale?: string;
  /**
   * The site's locales, when a type exported has localized columns: the codes its rows name, and
   * what a continuing run compares to tell whether fallbacks changed since (then it reads those types again).
   */
  locales?: LocalesDocument;
}

/** What an export of the first format left: each type's rows in one file and a list of every file. */
interface IndexVersion1 {
  format: 'quire-export';
  version: 1;
  published_only: boolean;
  types: string[];
  files: string[];
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
  /** Why an export asked to continue (`--since`) was written in full instead, when it was. */
  inFull?: string;
  /** Image variants made by this run (not kept from the last one). */
  variantsMade: number;
}

/** Stems of the export's own files a type's could meet (`index.json`, `openapi.json`, `media/`). */
const OWN_STEMS: ReadonlySet<string> = new Set(['index', 'openapi', 'media']);

/**
 * Writes a site's content as JSON files a static build can read without a server: `index.json`,
 * `content-types.json`, `openapi.json`, `types.d.ts`, each type's rows on pages
 * (`<table>/pages/<n>.json`, see export-pages.ts), one `<table>/<id>.json` per row and `media/...`
 * for the media the rows use. File names are made safe and unique on every file system
 * (file-name-rules.ts), so a few differ from the id or table; the index and the pages name those.
 * With `images`, the variants of its images and their manifests are written beside the media.
 * Rows of a type with localized columns are read in every locale at once (each such field an
 * object of every locale's own value), or with `locale` in that locale, fallbacks applied; the
 * index records the locale and the site's locales. Files whose content is unchanged are left
 * alone; files of the previous export that are gone are removed. Continuing (`since`), it reads and writes only the pages and files the changed rows
 * touch, besides the small files every run writes.
 */
export async function exportSite(
  services: Services,
  store: MediaStore | null,
  dir: string,
  options: ExportOptions,
): Promise<ExportSummary> {
  const progress = options.progress ?? (() => {});
  const previous = await previousIndex(dir);
  let inFull: string | undefined;
  let plan: ChangePlan | null = null;
  if (options.since !== undefined && previous?.version === 1) {
    // Never two formats in one folder: the old one's files are removed as this one is written.
    inFull = `${dir} holds an export in the first format (each type's rows in one file), so it is exported in full once in the current one`;
  } else if (options.since !== undefined) {
    plan = await changesSince(services, dir, previous, options.since);
  }
  const continued = options.since === undefined ? null : previous;
  const asked = continued && Array.isArray(continued.types) ? continued.types : options.types;
  const publishedOnly = continued ? continued.published_only === true : options.publishedOnly;
  const locales = await services.locales.now();
  const inLocale = requestLocale(locales, continued ? recordedLocale(continued) : options.locale);
  // As the site spells it (`DE` asks for `de`); undefined: every locale at once.
  const locale = inLocale.kind === 'one' ? inLocale.code : undefined;
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
  const localized = chosen.filter((type) => localizedColumnsOf(type.columns).length > 0);
  // A change of the locales (a chain, the default) changes what rows read in every locale, row by row.
  const recorded = plan && 'locales' in plan.index ? JSON.stringify(plan.index.locales) : undefined;
  if (plan && recorded !== JSON.stringify(locales)) for (const type of localized) plan.retyped.add(type.table);
  const folder = new ExportFolder(dir);
  const document = await currentDocument(services);
  const names = new Map(document['x-quire-content-types'].map((type) => [type.table, type.name]));

  const exported: ExportedType[] = [];
  const media = new Set<string>();
  // Files the last export wrote that this one may not have: removed unless written or kept.
  const stale: string[] = plan ? [] : await exportFiles(dir, previous);
  let rowCount = 0;
  for (const type of chosen) {
    const stem = portableFileName(type.table, '', { reserved: OWN_STEMS });
    const found = plan?.index.content_types.find((entry) => entry.table === type.table);
    // Its folders as this run names them, never as a (perhaps edited) index says.
    const before = found && { ...found, rows: `${stem}/`, pages: `${stem}/pages/` };
    // A type whose rows name an upload replaced or described since is read again whole: its rows'
    // files carry the media library's layout of their images.
    const namesChangedMedia = Object.keys(before?.media_pages ?? {}).some((path) => plan?.media.has(path));
    const changed =
      plan && before && !plan.retyped.has(type.table) && !namesChangedMedia
        ? (plan.rows.get(type.table) ?? new Set<string>())
        : null;
    let entry: ExportedType;
    if (changed?.size === 0 && before) {
      // No change touched the type: its files and its entry stay as the last export left them.
      progress(`Exporting ${type.table}: unchanged`);
      entry = before;
    } else if (changed && before) {
      progress(`Exporting ${type.table}: ${changed.size} changed rows`);
      entry = await patchType(services, type, dir, folder, before, changed, stale, {
        publishedOnly,
        locale: inLocale,
        rowsPerPage: options.rowsPerPage,
      });
    } else {
      if (before) stale.push(...(await filesOf(dir, before)));
      const rows = await readAll(services, type, publishedOnly, locale ?? 'all', (done) =>
        progress(`Exporting ${type.table}: ${done} rows`),
      );
      const base = {
        table: type.table,
        slug: type.slug,
        title: type.title,
        name: names.get(type.table) ?? type.table,
        rows: `${stem}/`,
        pages: `${stem}/pages/`,
        slug_column: type.slugColumn,
      };
      entry = await writeType(folder, base, rows, stale, options.rowsPerPage);
    }
    for (const path of Object.keys(entry.media_pages ?? {})) media.add(path.slice(MEDIA_URL_PREFIX.length));
    rowCount += entry.count;
    exported.push(entry);
  }
  // A type the last run exported and this one does not (deleted since): its files go.
  for (const gone of plan?.index.content_types ?? []) {
    if (!chosen.some((type) => type.table === gone.table)) stale.push(...(await filesOf(dir, gone)));
  }
  for (const path of plan?.index.media ?? []) stale.push(path.slice(1));

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
  const index: ExportIndex = {
    format: 'quire-export',
    version: 2,
    quire: quireVersion(),
    published_only: publishedOnly,
    content_types: exported,
    media: usedMedia.sort().map((path) => `/media/${path}`),
    types: [...asked],
    cursor,
    ...(locale === undefined ? {} : { locale }),
    ...(localized.length > 0 ? { locales } : {}),
  };
  // The index goes last: a run that stops before it leaves the last cursor, so the next run
  // applies the same changes again (each file is replaced whole, never half-written).
  await folder.writeJson(INDEX_FILE, index);
  await folder.removeStale(stale);
  // Variants follow the media just exported; a run continuing asks what the export recorded.
  const images = options.since === undefined ? (options.images ?? null) : await recordedVariantSettings(dir);
  if (images) progress('Writing image variants');
  const variants = await writeImageVariants(dir, store, options.library, images, index.media);
  return {
    ...folder.counts,
    written: folder.counts.written + variants.written,
    unchanged: folder.counts.unchanged + variants.unchanged,
    removed: folder.counts.removed + variants.removed,
    variantsMade: variants.made,
    types: exported.length,
    rows: rowCount,
    media: usedMedia.length,
    missingMedia,
    cursor,
    ...(inFull ? { inFull } : {}),
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
  index: ExportIndex | IndexVersion1 | null,
  since: string,
): Promise<ChangePlan> {
  if (index?.version !== 2 || typeof index.cursor !== 'string' || !Array.isArray(index.types)) {
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
 * A type's rows continued from the last export: the `changed` rows read again, each replacing its
 * row on its page, added, or left out when deleted (or no longer published, with `publishedOnly`).
 * Only their pages are read and written, unless the type is paged again for its new size.
 */
async function patchType(
  services: Services,
  type: ContentType,
  dir: string,
  folder: ExportFolder,
  before: ExportedType,
  changed: ReadonlySet<string>,
  stale: string[],
  { publishedOnly, locale, rowsPerPage }: { publishedOnly: boolean; locale: RequestLocale; rowsPerPage?: number },
): Promise<ExportedType> {
  const published = publishedOnly && type.columnsByName.get('status')?.type === 'select';
  const pages = new Map<number, ExportPage>();
  for (const id of changed) {
    const page = pageOf(id, before.page_count);
    if (!pages.has(page)) pages.set(page, await readPage(dir, before, page));
  }
  const current = new Map<string, ContentRow>();
  let count = before.count;
  for (const id of changed) {
    const row = await currentRow(services, type.table, id, locale);
    if (row && (!published || row.status === 'published')) current.set(id, row);
    const listed = pages.get(pageOf(id, before.page_count))?.rows.some((other) => other.id === id) ?? false;
    count += Number(current.has(id)) - Number(listed);
  }
  const kept = (rows: readonly ContentRow[]) => rows.filter((row) => !changed.has(row.id));
  if (nextPageCount(before.page_count, count, rowsPerPage) !== before.page_count) {
    const rows: ContentRow[] = [];
    for (let page = 0; page < before.page_count; page++) {
      const read = pages.get(page) ?? (await readPage(dir, before, page));
      rows.push(...kept(read.rows));
      stale.push(
        pagePath(before, page),
        ...pageFiles(
          before,
          read.rows.map((row) => row.id),
        ).values(),
      );
    }
    rows.push(...current.values());
    const { page_count: _, count: __, media_pages: ___, ...base } = before;
    return writeType(folder, base, rows, stale, rowsPerPage);
  }
  const rowsByPage = new Map<number, ContentRow[]>();
  for (const [page, read] of pages) rowsByPage.set(page, kept(read.rows));
  for (const row of current.values()) rowsByPage.get(pageOf(row.id, before.page_count))?.push(row);
  const media = new Map(Object.entries(before.media_pages));
  await writePages(folder, before, rowsByPage, pages, changed, media, stale);
  return { ...before, count, media_pages: sortedRecord(media) };
}

/** Writes a type's rows whole: paged for their number, every page and row file (unchanged ones left alone). */
async function writeType(
  folder: ExportFolder,
  base: Omit<ExportedType, 'page_count' | 'count' | 'media_pages'>,
  rows: readonly ContentRow[],
  stale: string[],
  rowsPerPage?: number,
): Promise<ExportedType> {
  const paged = { ...base, page_count: pageCountFor(rows.length, rowsPerPage) };
  const rowsByPage = new Map<number, ContentRow[]>();
  for (let page = 0; page < paged.page_count; page++) rowsByPage.set(page, []);
  for (const row of rows) rowsByPage.get(pageOf(row.id, paged.page_count))?.push(row);
  const media = new Map<string, number>();
  await writePages(folder, paged, rowsByPage, new Map(), null, media, stale);
  return { ...paged, count: rows.length, media_pages: sortedRecord(media) };
}

/** A map as a plain object with its keys sorted, so an unchanged map writes an unchanged index. */
function sortedRecord(map: ReadonlyMap<string, number>): Record<string, number> {
  const record: Record<string, number> = Object.create(null);
  for (const key of [...map.keys()].sort()) record[key] = map.get(key) as number;
  return record;
}

/** A row as its read in `locale` answers it; null when it is gone. */
async function currentRow(
  services: Services,
  table: string,
  id: string,
  locale: RequestLocale,
): Promise<ContentRow | null> {
  try {
    return (await readRow(services, table, id, null, 'html', locale)).body.rows[0] ?? null;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** The locale an export continued was read in (absent: every locale at once). */
function recordedLocale(index: ExportIndex | IndexVersion1): string | undefined {
  return 'locale' in index && typeof index.locale === 'string' ? index.locale : undefined;
}

/**
 * The read `locale` asks for (absent: every locale at once), or an ExportError naming the site's
 * locales when it lists no such locale (one an export recorded may have been removed since).
 */
function requestLocale(locales: LocalesDocument, locale: string | undefined): RequestLocale {
  if (locale === undefined || locale === 'all') return { kind: 'all' };
  try {
    return parseLocaleParameter(locales, locale);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const codes = locales.locales.map((listed) => listed.code).join(', ');
    throw new ExportError(`${locale} is not one of the site's locales (${codes}); export with one of them`);
  }
}

/** The index of the export already in `dir`, in either format (null when there is no readable one). */
async function previousIndex(dir: string): Promise<ExportIndex | IndexVersion1 | null> {
  try {
    const index = JSON.parse(await readFile(join(dir, INDEX_FILE), 'utf8')) as ExportIndex | IndexVersion1;
    if (index.format !== 'quire-export') return null;
    if (index.version === 2) return Array.isArray(index.content_types) && Array.isArray(index.media) ? index : null;
    if (!Array.isArray(index.files)) return null;
    return { ...index, version: 1, files: index.files.filter((file): file is string => typeof file === 'string') };
  } catch {
    return null;
  }
}

/**
 * Every file an export wrote, as far as it can be read: the first format listed them; the current
 * one's are its types' pages and row files and its media (a type whose pages are unreadable is
 * left as it is).
 */
async function exportFiles(dir: string, index: ExportIndex | IndexVersion1 | null): Promise<string[]> {
  if (!index) return [];
  if (index.version === 1) return index.files;
  const files = index.media.map((path) => path.slice(1));
  for (const type of index.content_types) files.push(...(await filesOf(dir, type)));
  return files;
}

/** A type's files as the last export wrote them; none when its pages are unreadable (nothing of it is removed). */
async function filesOf(dir: string, type: PagedType): Promise<string[]> {
  try {
    return await typeFiles(dir, type);
  } catch {
    return [];
  }
}

/** Every row of a type (or every published one) read in `locale` (a code or `all`), page by page in id order. */
async function readAll(
  services: Services,
  type: ContentType,
  publishedOnly: boolean,
  locale: string,
  progress: (done: number) => void,
): Promise<ContentRow[]> {
  const published = publishedOnly && type.columnsByName.get('status')?.type === 'select';
  const rows: ContentRow[] = [];
  for (;;) {
    const query: Record<string, unknown> = {
      limit: String(MAX_LIMIT),
      offset: String(rows.length),
      order: 'id',
      locale,
    };
    if (published) query.filter = 'status=published';
    const { body } = await readList(services, type.table, query);
    rows.push(...body.rows);
    progress(rows.length);
    if (body.rows.length < MAX_LIMIT) return rows;
  }
}
