import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { QuireDb } from '../db/database.js';
import { AUDIT_TABLE } from '../db/repositories/audit-repository.js';
import { REVISION_TABLES } from '../db/repositories/revision-repository.js';
import { SETTINGS_TABLE } from '../db/repositories/settings-repository.js';
import { sniffImage } from '../media/image-sniffing.js';
import { listMediaFiles, mediaFileLocation, readMediaFile } from '../media/media-files.js';
import { mediaDirFor } from '../media/media-store.js';
import {
  accountRows,
  type CopiedMedia,
  countPostgresMedia,
  countRows,
  inTargetTransaction,
  publishingRows,
  readPostgresMedia,
  readRowBatches,
  registryRows,
  settingsRows,
  targetContents,
} from './site-copy.js';

/** A copy that cannot go ahead or did not check out: its message is one line for the user. */
export class SiteCopyError extends Error {}

/** What `copySite` takes besides the two databases. */
export interface SiteCopyOptions {
  /** Replace the target's content types, rows and uploads even when it has some. */
  force?: boolean;
  /** Called as the copy moves on, with one line (a progress line is rewritten in place). */
  progress?: (line: string) => void;
  /** A SQLite source's uploads when they are not in `media/` beside its file (a backup's copy). */
  sourceMedia?: string;
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
 * read. The target's database writes are one transaction; on SQLite the upload files are written
 * before it commits and removed again if it fails, so a failed copy leaves the target as it was.
 */
export async function copySite(
  source: QuireDb,
  target: QuireDb,
  options: SiteCopyOptions = {},
): Promise<SiteCopySummary> {
  const progress = options.progress ?? (() => {});
  const present = await targetContents(target);
  if (present && !options.force) {
    throw new SiteCopyError(`the target is not empty (${present}); pass --force to replace its content`);
  }
  const types = await registryRows(source);
  const expected: Record<string, number> = {};
  for (const type of types) expected[String(type.table_name)] = await countRows(source.db, String(type.table_name));
  const totalRows = Object.values(expected).reduce((sum, n) => sum + n, 0);
  const placedFiles: string[] = [];
  let media = 0;
  try {
    await inTargetTransaction(target, async (writer) => {
      await writer.clear();
      let copied = 0;
      for (const type of types) {
        const table = String(type.table_name);
        const columns = JSON.parse(String(type.columns)) as ColumnDescriptor[];
        await writer.createType(type, columns);
        for await (const rows of readRowBatches(source.db, table)) {
          await writer.insertRows(table, rows);
          copied += rows.length;
          progress(`Copying rows: ${copied}/${totalRows}`);
        }
        await writer.reindex(table, columns);
      }
      for await (const file of sourceMedia(source, options.sourceMedia)) {
        if (target.kind === 'postgres') await writer.insertMedia(file);
        else placedFiles.push(...(await placeFile(mediaDirFor(target.file), file)));
        media += 1;
        progress(`Copying uploads: ${media}`);
      }
      for (const [table, rows] of await accountRows(source)) await writer.insertRows(table, rows);
      // Build hooks and scheduled changes (issue 15).
      for (const [table, rows] of await publishingRows(source)) await writer.insertRows(table, rows);
      // Row revisions (the trash among them) and the content-type change log (issue 15).
      for (const table of REVISION_TABLES) {
        for await (const rows of readRowBatches(source.db, table)) await writer.insertRows(table, rows);
      }
      // The audit log: who signed in and changed what stays on record in the copy.
      for await (const rows of readRowBatches(source.db, AUDIT_TABLE)) await writer.insertRows(AUDIT_TABLE, rows);
      // Site-wide settings: the first run's starter choice stays made on the copy.
      await writer.insertRows(SETTINGS_TABLE, await settingsRows(source));
    });
  } catch (error) {
    for (const file of placedFiles) await rm(file, { force: true });
    throw error;
  }
  await checkCounts(target, types, expected, media);
  return { types: types.length, rows: totalRows, media };
}

/** The uploads of the source: its media folder on SQLite, `quire_media` on PostgreSQL. */
async function* sourceMedia(source: QuireDb, folder?: string): AsyncGenerator<CopiedMedia> {
  if (source.kind === 'postgres') {
    yield* readPostgresMedia(source.db);
    return;
  }
  const root = folder ?? mediaDirFor(source.file);
  for (const file of await listMediaFiles(root)) {
    // Never through a symlink: a given folder (a backup's) is checked down from its own entry.
    const bytes = await readMediaFile(root, file.path, { checkRoot: folder !== undefined });
    // PostgreSQL keeps each upload's MIME type; a file that is no known image keeps a neutral one.
    const type = sniffImage(bytes)?.type ?? 'application/octet-stream';
    yield { path: file.path, type, bytes };
  }
}

/** Writes an upload into a media folder; returns the file when it made it (to remove on failure). */
async function placeFile(root: string, media: CopiedMedia): Promise<string[]> {
  const location = mediaFileLocation(root, media.path);
  if (!location) throw new SiteCopyError(`the upload ${media.path} has no valid media path`);
  const existed = await stat(location).then(
    () => true,
    () => false,
  );
  await mkdir(dirname(location), { recursive: true });
  await writeFile(location, media.bytes);
  return existed ? [] : [location];
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
  const stored =
    target.kind === 'postgres'
      ? await countPostgresMedia(target)
      : (await listMediaFiles(mediaDirFor(target.file))).length;
  if (stored < media)
    throw new SiteCopyError(`count check failed: the target holds ${stored} uploads, the source ${media}`);
}
