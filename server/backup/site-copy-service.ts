import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { QuireDb } from '../db/database.js';
import { ASSETS_TABLE } from '../db/repositories/asset-repository.js';
import { AUDIT_TABLE } from '../db/repositories/audit-repository.js';
import { LOCALES_TABLE, LocaleRepository } from '../db/repositories/locale-repository.js';
import { REVISION_TABLES } from '../db/repositories/revision-repository.js';
import { SETTINGS_TABLE } from '../db/repositories/settings-repository.js';
import { documentOf } from '../locales/locale-service.js';
import {
  accountRows,
  countRows,
  inTargetTransaction,
  publishingRows,
  readRowBatches,
  registryRows,
  SiteCopyError,
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
      for await (const file of source.uploads.read(source.db)) {
        const taken = await writer.writeMedia(file);
        if (taken) undo.push(taken);
        media += 1;
        progress(`Copying uploads: ${media}`);
      }
      // The media library: each upload's name, alt text, caption, credit, focal point and folder.
      for await (const rows of readRowBatches(source.db, ASSETS_TABLE)) await writer.insertRows(ASSETS_TABLE, rows);
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
