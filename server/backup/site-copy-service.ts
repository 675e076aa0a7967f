import type { ColumnDescriptor } from '../../common/api-contract.js';
import { MEDIA_URL_PREFIX } from '../../common/media-rules.js';
import type { QuireDb } from '../db/database.js';
import { ASSETS_TABLE } from '../db/repositories/asset-repository.js';
import { AUDIT_TABLE } from '../db/repositories/audit-repository.js';
import { LOCALES_TABLE, LocaleRepository } from '../db/repositories/locale-repository.js';
import { REVISION_TABLES } from '../db/repositories/revision-repository.js';
import { SETTINGS_TABLE } from '../db/repositories/settings-repository.js';
import { documentOf } from '../locales/locale-service.js';
import { kindOfFileName } from '../media/media-path.js';
import { cleanArrivingSvg } from '../media/stored-svg-check.js';
import {
  accountRows,
  type CopiedMedia,
  countRows,
  inTargetTransaction,
  publishingRows,
  readRowBatches,
  registryRows,
  SiteCopyError,
  type SiteCopyWriter,
  settingsRows,
  targetContents,
} from './site-copy.js';

export { SiteCopyError } from './site-copy.js';

/** What a copy reads: a database, or a read-only snapshot of one (`db` a transaction of it). */
export type SiteCopySource = Pick<QuireDb, 'db' | 'uploads'>;

/** What `copySite` takes besides the two databases. */
export interface SiteCopyOptions {
  /** Replace the target's content types, rows and uploads even when it has some. */
  force?: boolean;
  /** Called as the copy moves on, with one line (a progress line is rewritten in place). */
  progress?: (line: string) => void;
  /**
   * Whether SVG uploads are cleaned as they arrive, as uploads are (default): a restore or a copy
   * brings files from a folder or a database anyone may have changed. A backup leaves them as
   * they are (its restore cleans them).
   */
  cleanSvgs?: boolean;
  /** Where the lines on cleaned SVGs go (default: standard error). */
  log?: (line: string) => void;
}

/** What a finished copy moved: content types, rows and uploads, checked against the target. */
export interface SiteCopySummary {
  types: number;
  rows: number;
  media: number;
}

/**
 * Copies a whole site from `source` into `target` (either engine on either side): the content-type
 * registry as stored, every row with every stored column, and every upload. The source is only
 * read. The target's database writes are one transaction; uploads kept as files are written
 * before it commits and removed again if it fails, so a failed copy leaves the target as it was.
 */
export async function copySite(
  source: SiteCopySource,
  target: QuireDb,
  options: SiteCopyOptions = {},
): Promise<SiteCopySummary> {
  const progress = options.progress ?? (() => {});
  const log = options.log ?? ((line: string) => console.warn(line));
  const present = await targetContents(target);
  if (present && !options.force) {
    throw new SiteCopyError(`the target is not empty (${present}); pass --force to replace its content`);
  }
  const types = await registryRows(source);
  // The locale columns of localized columns follow the source's locales.
  const locales = documentOf(await new LocaleRepository(source.db).read());
  const expected: Record<string, number> = {};
  for (const type of types) expected[String(type.table_name)] = await countRows(source.db, String(type.table_name));
  const totalRows = Object.values(expected).reduce((sum, n) => sum + n, 0);
  const undo: (() => Promise<void>)[] = [];
  let media = 0;
  try {
    await inTargetTransaction(target, async (writer) => {
      await writer.clear();
      let copied = 0;
      for (const type of types) {
        const table = String(type.table_name);
        const columns = JSON.parse(String(type.columns)) as ColumnDescriptor[];
        await writer.createType(type, columns, locales);
        for await (const rows of readRowBatches(source.db, table)) {
          await writer.insertRows(table, rows);
          copied += rows.length;
          progress(`Copying rows: ${copied}/${totalRows}`);
        }
        await writer.reindex(table, columns);
      }
      // Media paths of SVGs cleaning refused: they arrive without file and without asset.
      const refused = new Set<string>();
      for await (const file of source.uploads.read(source.db)) {
        const bytes = options.cleanSvgs === false ? file.bytes : await arriving(file, writer, undo, log);
        if (!bytes) {
          refused.add(`${MEDIA_URL_PREFIX}${file.path}`);
          continue;
        }
        const taken = await writer.writeMedia({ ...file, bytes });
        if (taken) undo.push(taken);
        media += 1;
        progress(`Copying uploads: ${media}`);
      }
      // The media library: each upload's name, alt text, caption, credit, focal point and folder.
      // A cleaned SVG's size and hash follow its file when a server starts (AssetService.adoptStored).
      for await (const rows of readRowBatches(source.db, ASSETS_TABLE)) {
        await writer.insertRows(
          ASSETS_TABLE,
          rows.filter((row) => !refused.has(String(row.path))),
        );
      }
      for (const [table, rows] of await accountRows(source)) await writer.insertRows(table, rows);
      // Build hooks and scheduled changes.
      for (const [table, rows] of await publishingRows(source)) await writer.insertRows(table, rows);
      // Row revisions (the trash among them) and the content-type change log.
      for (const table of REVISION_TABLES) {
        for await (const rows of readRowBatches(source.db, table)) await writer.insertRows(table, rows);
      }
      // The audit log: who signed in and changed what stays on record in the copy.
      for await (const rows of readRowBatches(source.db, AUDIT_TABLE)) await writer.insertRows(AUDIT_TABLE, rows);
      // Site-wide settings: the first run's starter choice stays made on the copy.
      await writer.insertRows(SETTINGS_TABLE, await settingsRows(source));
      // The site's languages (the one row of quire_locales, with its version).
      for await (const rows of readRowBatches(source.db, LOCALES_TABLE)) await writer.insertRows(LOCALES_TABLE, rows);
    });
  } catch (error) {
    for (const taken of undo) await taken();
    throw error;
  }
  await checkCounts(target, types, expected, media);
  return { types: types.length, rows: totalRows, media };
}

/**
 * The bytes an upload arrives in the target with: an SVG cleaned as uploads are (see
 * `cleanArrivingSvg`), its bytes as they came set aside in the target, or where the target keeps
 * none, named where the source keeps them; null for one cleaning refuses.
 */
async function arriving(
  file: CopiedMedia,
  writer: SiteCopyWriter,
  undo: (() => Promise<void>)[],
  log: (line: string) => void,
): Promise<Buffer | null> {
  if (kindOfFileName(file.path)?.type !== 'image/svg+xml') return file.bytes;
  return cleanArrivingSvg({
    path: file.path,
    bytes: file.bytes,
    how: 'of the source',
    log,
    async setAside() {
      const aside = await writer.setAsideMedia(file.path, file.bytes);
      if (!aside) return file.origin ?? null;
      undo.push(aside.undo);
      return aside.kept;
    },
  });
}

/** Checks that the target now holds as many rows per type and uploads as the source had. */
async function checkCounts(
  target: QuireDb,
  types: readonly Record<string, unknown>[],
  expected: Record<string, number>,
  media: number,
): Promise<void> {
  for (const type of types) {
    const table = String(type.table_name);
    const found = await countRows(target.db, table);
    if (found !== expected[table]) {
      throw new SiteCopyError(
        `count check failed: ${type.slug} has ${found} rows in the target, ${expected[table]} in the source`,
      );
    }
  }
  const stored = await target.uploads.count();
  if (stored < media)
    throw new SiteCopyError(`count check failed: the target holds ${stored} uploads, the source ${media}`);
}
