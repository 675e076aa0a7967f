import { randomInt } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { type Kysely, sql } from 'kysely';
import { MemorySearchIndex } from '../../search/search-memory-index.js';
import { SnapshotFormatError, SnapshotReader, SnapshotWriter } from '../../search/search-snapshot-codec.js';
import {
  DAMAGED_SNAPSHOT,
  type SnapshotUnused,
  savedFile,
  snapshotPath,
  writeSnapshotFile,
} from '../../search/search-snapshot-files.js';
import { searchPendingName } from '../queries/internal-names.js';
import { connectionRunner, type StatementRunner } from '../statement-runner.js';
import { quote } from './sqlite-memory-pages.js';
import type { SchemaRead } from './sqlite-search-triggers.js';

/**
 * In-memory search indexes saved at a clean stop and read back at the next start, so a fresh
 * server answers its first search without building the index again (reading one back takes a
 * fraction of a build).
 *
 * A saved index is a file per table in a folder beside the database (`<file>-search-index/`),
 * trusted only when it still describes the table exactly:
 *
 * - When it is written, a random marker goes into the table's pending table as a row of its own (a
 *   negative rowid, which no content row has) in a transaction that also checks no other connection
 *   committed since the index was brought in step; the file records the marker and SQLite's
 *   `schema_version`.
 * - Every later change to the table is noted in the pending table by the search triggers, whoever
 *   makes it, and those rows are read again after loading. Emptying the pending table (the search
 *   flush, in any process) deletes the marker too; an import re-creates the triggers and a VACUUM
 *   (which may renumber rowids) raises `schema_version`. So the file is loaded only when its marker
 *   is still there and the schema version is the recorded one.
 * - The file is deleted as it is read, before the index answers anything: if the server stops
 *   uncleanly later, no file is left to describe a database that moved on. A file that cannot be
 *   deleted is not used.
 */

/** Starts every snapshot file (and changes when the format does). */
const MAGIC = 'quire search index 3';

/** Where the saved indexes of the database at `file` go. */
export function snapshotFolder(file: string): string {
  return `${file}-search-index`;
}

/** Where a connection's indexes are saved, and who hears of one not read back. */
interface Keeping {
  folder: string;
  minRows: number;
  onUnused?: SnapshotUnused;
}

/** Where a connection's indexes are saved (set for servers: see OpenSqliteOptions.savedSearchIndexes). */
const folders = new WeakMap<StatementRunner, Keeping>();

/**
 * Saves the indexes of the runner's connection in `folder` at a clean stop (those of `minRows` rows
 * up); `onUnused` hears why a saved one was not read back.
 */
export function keepSavedIndexesIn(
  runner: StatementRunner,
  folder: string,
  minRows: number,
  onUnused?: SnapshotUnused,
): void {
  folders.set(runner, { folder, minRows, onUnused });
}

/** Where and from what size the runner's indexes are saved, or undefined when they are not. */
export function snapshotsOf(runner: StatementRunner): Keeping | undefined {
  return folders.get(connectionRunner(runner));
}

/** What a saved index holds besides the index itself. */
export interface SavedIndex {
  index: MemorySearchIndex;
  columns: readonly string[];
  /** IdOrder's verdict when it was saved. */
  idOrderHolds: boolean;
}

/**
 * Saves `saved` for `table`. The index must be in step with the table as this connection sees it,
 * and `changeToken` the connection's `externalChangeToken()` when it was brought in step: if another
 * connection committed since, nothing is saved. Returns whether the file was written.
 */
export async function saveSnapshot(
  db: Kysely<unknown>,
  runner: StatementRunner,
  folder: string,
  table: string,
  saved: SavedIndex,
  changeToken: number,
): Promise<boolean> {
  const marker = -randomInt(1, 2 ** 48);
  const pending = sql.id(searchPendingName(table));
  const schemaVersion = await db.transaction().execute(async (trx) => {
    // The delete takes the write lock: no other connection commits until this one does.
    await sql`delete from ${pending} where rowid < 0`.execute(trx);
    if (runner.externalChangeToken() !== changeToken) return null;
    await sql`insert into ${pending} (rowid) values (${marker})`.execute(trx);
    const { rows } = await sql<{ v: number }>`select schema_version as v from pragma_schema_version`.execute(trx);
    return Number(rows[0].v);
  });
  if (schemaVersion === null) return false;
  const out = new SnapshotWriter();
  out.string(MAGIC);
  out.f64(marker);
  out.f64(schemaVersion);
  out.string(table);
  out.u32(saved.columns.length);
  for (const column of saved.columns) out.string(column);
  out.u32(saved.idOrderHolds ? 1 : 0);
  saved.index.write(out);
  await writeSnapshotFile(snapshotPath(folder, table), out);
  return true;
}

/**
 * The saved index of `table` for `columns`, when its file is there and still describes the table
 * (see the module comment), else null; `unused` hears why a file that was there was not used. The
 * file is gone afterwards either way. `read` runs reads on the connection the index serves.
 */
export async function loadSnapshot(
  read: SchemaRead,
  folder: string,
  table: string,
  columns: readonly string[],
  unused: (reason: string) => void = () => {},
): Promise<SavedIndex | null> {
  const path = snapshotPath(folder, table);
  const file = await savedFile(path);
  if (file === null) return null;
  const notUsed = (reason: string) => {
    unused(reason);
    return null;
  };
  try {
    await rm(path);
  } catch {
    return notUsed('its file could not be deleted');
  }
  try {
    const input = new SnapshotReader(file.buffer, file.tail);
    if (input.string() !== MAGIC) return notUsed(DAMAGED_SNAPSHOT);
    const marker = input.f64();
    const schemaVersion = input.f64();
    if (input.string() !== table) return notUsed(DAMAGED_SNAPSHOT);
    const saved: string[] = [];
    for (let count = input.u32(); count > 0; count--) saved.push(input.string());
    if (saved.length !== columns.length || saved.some((column, i) => column !== columns[i])) {
      return notUsed('the searched columns changed since it was saved');
    }
    const idOrderHolds = input.u32() === 1;
    const [row] = await read(
      `select (select schema_version from pragma_schema_version) as v,
        exists (select 1 from ${quote(searchPendingName(table))} where rowid = ?) as marked`,
      [marker],
    );
    if (Number(row?.v) !== schemaVersion) return notUsed('the database schema changed since it was saved');
    if (Number(row?.marked) !== 1) return notUsed('a search flush ran on the database after it was saved');
    const index = MemorySearchIndex.read(input);
    if (!input.done) return notUsed(DAMAGED_SNAPSHOT);
    return { index, columns: saved, idOrderHolds };
  } catch (error) {
    if (error instanceof SnapshotFormatError || error instanceof RangeError) return notUsed(DAMAGED_SNAPSHOT);
    throw error;
  }
}
