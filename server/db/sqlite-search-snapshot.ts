import { randomInt } from 'node:crypto';
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { searchPendingName } from './internal-names.js';
import { MemorySearchIndex } from './search-memory-index.js';
import { quote } from './search-memory-pages.js';
import { SnapshotFormatError, SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';
import type { SchemaRead } from './sqlite-search-triggers.js';
import { connectionRunner, type StatementRunner } from './statement-runner.js';

/**
 * In-memory search indexes saved at a clean stop and read back at the next start, so a fresh
 * server answers its first search without building the index again (about 9 s at 1M rows; reading
 * one back is a fraction of that).
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

/**
 * Rows from which a table's search index is saved: below this its build takes about as long as
 * reading it back (a few hundred milliseconds).
 */
export const SNAPSHOT_MIN_ROWS = 20_000;

/** Starts every snapshot file (and changes when the format does). */
const MAGIC = 'quire search index 2';

/** Where the saved indexes of the database at `file` go. */
export function snapshotFolder(file: string): string {
  return `${file}-search-index`;
}

/** The file of one table's saved index in `folder` (table names are any text: hex keeps them safe). */
function snapshotPath(folder: string, table: string): string {
  return join(folder, `${Buffer.from(table, 'utf8').toString('hex')}.bin`);
}

/** Where a connection's indexes are saved (set for servers: see OpenSqliteOptions.searchSnapshots). */
const folders = new WeakMap<StatementRunner, { folder: string; minRows: number }>();

/** Saves the indexes of the runner's connection in `folder` at a clean stop (those of `minRows` rows up). */
export function keepSearchSnapshots(runner: StatementRunner, folder: string, minRows: number): void {
  folders.set(runner, { folder, minRows });
}

/** Where and from what size the runner's indexes are saved, or undefined when they are not. */
export function snapshotsOf(runner: StatementRunner): { folder: string; minRows: number } | undefined {
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
  const chunks = out.finish();
  const path = snapshotPath(folder, table);
  const partial = `${path}.partial`;
  await mkdir(folder, { recursive: true });
  // Written before anything else runs: large arrays are the index's own (see SnapshotWriter).
  const handle = await open(partial, 'w');
  try {
    await handle.writev(chunks);
  } finally {
    await handle.close();
  }
  await rename(partial, path);
  return true;
}

/**
 * The saved index of `table` for `columns`, when its file is there and still describes the table
 * (see the module comment), else null. The file is gone afterwards either way. `read` runs reads on
 * the connection the index serves.
 */
export async function loadSnapshot(
  read: SchemaRead,
  folder: string,
  table: string,
  columns: readonly string[],
): Promise<SavedIndex | null> {
  const path = snapshotPath(folder, table);
  const early = prefetched.get(path);
  prefetched.delete(path);
  const buffer = await (early ?? readWhole(path));
  if (buffer === null) return null;
  try {
    await rm(path);
  } catch {
    return null;
  }
  try {
    const input = new SnapshotReader(buffer);
    if (input.string() !== MAGIC) return null;
    const marker = input.f64();
    const schemaVersion = input.f64();
    if (input.string() !== table) return null;
    const saved: string[] = [];
    for (let count = input.u32(); count > 0; count--) saved.push(input.string());
    if (saved.length !== columns.length || saved.some((column, i) => column !== columns[i])) return null;
    const idOrderHolds = input.u32() === 1;
    const [row] = await read(
      `select (select schema_version from pragma_schema_version) as v,
        exists (select 1 from ${quote(searchPendingName(table))} where rowid = ?) as marked`,
      [marker],
    );
    if (Number(row?.v) !== schemaVersion || Number(row?.marked) !== 1) return null;
    const index = MemorySearchIndex.read(input);
    if (!input.done) return null;
    return { index, columns: saved, idOrderHolds };
  } catch (error) {
    if (error instanceof SnapshotFormatError || error instanceof RangeError) return null;
    throw error;
  }
}

/** Parallel reads of a snapshot file (libuv's threads copy from the page cache side by side). */
const READS = 4;

/**
 * The whole file at `path` in a fresh ArrayBuffer (its arrays are read as views of it), or null.
 * Read in READS parts at once: at 1M rows (115 MB) 42-53 ms against 68-92 in one.
 */
async function readWhole(path: string): Promise<ArrayBuffer | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch {
    return null;
  }
  try {
    const { size } = await handle.stat();
    // Not zero-filled first (115 MB at 1M rows, about 25 ms): every byte is read into it.
    const bytes = Buffer.allocUnsafeSlow(size);
    const buffer = bytes.buffer as ArrayBuffer;
    const part = Math.ceil(size / READS / 65536) * 65536;
    const ends = await Promise.all(
      Array.from({ length: READS }, async (_, k) => {
        const end = Math.min(size, (k + 1) * part);
        let at = k * part;
        while (at < end) {
          const { bytesRead } = await handle.read(bytes, at, end - at, at);
          if (bytesRead === 0) break;
          at += bytesRead;
        }
        return at >= end;
      }),
    );
    return ends.every(Boolean) ? buffer : null;
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}

/** How long a file read ahead waits for its load (which reads it again after that). */
const PREFETCH_KEPT_MS = 60_000;
/** Files read ahead by `readSavedTables`, by path, until `loadSnapshot` takes them. */
const prefetched = new Map<string, Promise<ArrayBuffer | null>>();

/**
 * The tables with a saved index in `folder` (none when there is no folder), their files read from
 * now on, so that a database being opened has them in memory by the time it is ready to answer:
 * then pass each table to `loadSnapshot` (it takes the file read here, else reads it itself).
 */
export async function readSavedTables(folder: string): Promise<string[]> {
  // Reads kept from an earlier open of this database are dropped first, before any load of this
  // one can take them: a load may have read the file itself while such a read was under way, and
  // the file there now may be newer.
  for (const path of prefetched.keys()) if (dirname(path) === folder) prefetched.delete(path);
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => /^([0-9a-f]{2})+\.bin$/.test(name));
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(folder, name);
    const read = readWhole(path);
    prefetched.set(path, read);
    // A file no load takes (its table's triggers changed, say) is not held for the process's life.
    setTimeout(() => {
      if (prefetched.get(path) === read) prefetched.delete(path);
    }, PREFETCH_KEPT_MS).unref();
  }
  return names.map((name) => Buffer.from(name.slice(0, -4), 'hex').toString('utf8'));
}
