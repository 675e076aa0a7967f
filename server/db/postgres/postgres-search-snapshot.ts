import { readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { type SavedSearchIndexes, sameColumns } from '../../search/search-engine.js';
import { defaultLocaleColumns, indexKey, tableOfKey } from '../../search/search-index-tables.js';
import { MemorySearchIndex } from '../../search/search-memory-index.js';
import { SnapshotFormatError, SnapshotReader, SnapshotWriter } from '../../search/search-snapshot-codec.js';
import {
  DAMAGED_SNAPSHOT,
  readSavedTables,
  SNAPSHOT_MIN_ROWS,
  type SnapshotUnused,
  savedFile,
  snapshotPath,
  writeSnapshotFile,
} from '../../search/search-snapshot-files.js';
import { searchTextName } from '../queries/internal-names.js';
import { IdSequence } from './postgres-id-sequence.js';
import {
  catchUp,
  inStepAt,
  MAX_STEP_AGE_MS,
  REBUILD_MIN,
  REBUILD_SHARE,
  startBuild,
  stateOf,
  type TableState,
} from './postgres-memory-search-state.js';
import { searchTableOid, searchTextColumns, WRITTEN_BY } from './postgres-search-index.js';
import { ValueColumns } from './postgres-value-columns.js';

/**
 * PostgreSQL's in-memory search indexes (postgres-memory-search.ts) saved at a clean stop (and
 * after `quire import`) and read back when a server next opens the database, instead of building
 * them.
 *
 * A saved index is what the running one is: the index, its row numbers in id order, its select
 * columns' values (postgres-value-columns.ts), and the
 * `pg_current_snapshot()` and change number it is in step with. Read back, it is brought in step
 * exactly as a running index is (postgres-memory-search-state.ts `catchUp`): the rows written by
 * transactions that snapshot did not see, and the row numbers they removed. So the file needs no
 * marker in the database, and any server on this machine may read it, any number of times, while:
 *
 * - it is of this database: the cluster's system identifier and the database's oid (a database
 *   dropped and made again, or restored elsewhere, has another), recorded in the file and in its
 *   folder's name;
 * - its table's search table is the one it numbered (the oid: a search table made again has new
 *   row numbers) and the search columns are the same;
 * - removed row numbers since its snapshot are still kept: they are kept REMOVED_KEPT (seven days)
 *   after their transaction began, and a file is trusted for MAX_STEP_AGE_MS (six) after it was
 *   brought in step, by the database's clock.
 *
 * Files are written whole (search-snapshot-files.ts); the last server to stop writes the newest.
 * Folders of databases that no longer exist in this cluster are removed at each save.
 */

/** Starts every file (and changes when the format does). */
const MAGIC = 'quire postgres search index 3';
/**
 * Where and from what size a database's indexes are saved, with the database's identity in its
 * cluster (the cluster's system identifier and the database's oid: fixed while it is open), and
 * who hears why a saved one was not read back.
 */
interface Keeping {
  folder: string;
  minRows: number;
  system: string;
  database: string;
  onUnused?: SnapshotUnused;
}

const keeping = new WeakMap<Kysely<unknown>, Keeping>();

/** The database's clock (ms since 1970). */
function clockNow() {
  return sql<number>`(extract(epoch from clock_timestamp()) * 1000)::float8`;
}

/** The database's identity and its folder in `root`: its name (for people), oid and cluster. */
async function keepingIn(db: Kysely<unknown>, root: string, minRows: number): Promise<Keeping> {
  const { rows } = await sql<{ system: string; database: string; name: string }>`select
    (select system_identifier::text from pg_control_system()) as system,
    (select oid::text from pg_database where datname = current_database()) as database,
    current_database() as name`.execute(db);
  const { system, database, name } = rows[0];
  const folder = join(root, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}-${database}-${system}`);
  return { folder, minRows, system, database };
}

/**
 * Has `db`'s indexes of `minRows` rows up saved in `root` (`saveIndexes`), and read back
 * instead of built; `onUnused` hears why a saved one was not read back. Returns the tables with a
 * saved index, whose files are read from now on: warm them, and the first search finds them loaded.
 */
async function keepSavedIndexes(
  db: Kysely<unknown>,
  root: string,
  minRows: number,
  onUnused?: SnapshotUnused,
): Promise<string[]> {
  const keep = { ...(await keepingIn(db, root, minRows)), onUnused };
  keeping.set(db, keep);
  stateOf(db).load = (table, columns) => loadSavedIndex(db, table, columns);
  return readSavedTables(keep.folder);
}

/**
 * Builds the search index of `table` and saves it in `root` for the next start, when the table has
 * `minRows` rows or more: after an import, so that a server started on the database answers its
 * first search without building the index first. Returns whether it was saved.
 */
async function saveIndexNow(
  db: Kysely<unknown>,
  root: string,
  table: string,
  minRows = SNAPSHOT_MIN_ROWS,
): Promise<boolean> {
  const columns = await searchTextColumns(db, table);
  if (!columns || columns.length === 0) return false;
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.id(table)}`.execute(db);
  if (Number(rows[0].n) < minRows) return false;
  keeping.set(db, await keepingIn(db, root, minRows));
  // A fresh build: this process reads no saved index back (it has no `load`).
  stateOf(db).tables.delete(indexKey(table, columns));
  await startBuild(db, table, columns);
  return (await saveIndexes(db, table)).includes(table);
}

/**
 * PostgreSQL's saved indexes: a file per table in a folder of `place.folder` named for the database
 * (see the module comment), any server on this machine reading it back.
 */
export const postgresSavedIndexes: SavedSearchIndexes = {
  keepSavedIndexes: async (db, _runner, place) =>
    place.folder === undefined ? [] : keepSavedIndexes(db, place.folder, place.minRows, place.onUnused),
  saveIndexes: (db) => saveIndexes(db),
  saveIndexNow: async (db, _runner, table, place) =>
    place.folder !== undefined && saveIndexNow(db, place.folder, table, place.minRows),
};

/** What a saved index's file says of it before the index. */
export interface SavedHeader {
  /** The cluster's system identifier and the database's oid. */
  system: string;
  database: string;
  table: string;
  /** The search table's oid. */
  side: string;
  columns: readonly string[];
  /** `pg_current_snapshot()` and the change number the index is in step with. */
  snapshot: string;
  number: string;
  /** The database's clock before that snapshot (ms since 1970). */
  savedAt: number;
}

/** Writes the header (the index and its id sequence follow). */
export function writeSavedHeader(out: SnapshotWriter, header: SavedHeader): void {
  out.string(MAGIC);
  out.string(header.system);
  out.string(header.database);
  out.string(header.table);
  out.string(header.side);
  out.u32(header.columns.length);
  for (const column of header.columns) out.string(column);
  out.string(header.snapshot);
  out.string(header.number);
  out.f64(header.savedAt);
}

/** Reads a header `writeSavedHeader` wrote, or null when the file is of another format. */
export function readSavedHeader(input: SnapshotReader): SavedHeader | null {
  if (input.string() !== MAGIC) return null;
  const system = input.string();
  const database = input.string();
  const table = input.string();
  const side = input.string();
  const columns: string[] = [];
  for (let count = input.u32(); count > 0; count--) columns.push(input.string());
  return {
    system,
    database,
    table,
    side,
    columns,
    snapshot: input.string(),
    number: input.string(),
    savedAt: input.f64(),
  };
}

/**
 * Saves the indexes of `db` (or of the table `only`), each brought in step first (one statement),
 * for the next start. Returns the tables saved.
 */
async function saveIndexes(db: Kysely<unknown>, only?: string): Promise<string[]> {
  const keep = keeping.get(db);
  const saved: string[] = [];
  if (!keep) return saved;
  const database = stateOf(db);
  for (const [key, state] of [...database.tables]) {
    const table = tableOfKey(key);
    // A file per table: the default locale's index (another locale's is built at its first search).
    if ((only !== undefined && table !== only) || !defaultLocaleColumns(state.columns)) continue;
    const { index } = state;
    // Saved however many rows were written since the build: the next start answers with it and
    // builds it again in the background once many were (postgres-memory-search.ts).
    if (index.rows < keep.minRows) continue;
    // The clock before the snapshot: the file's age is never less than the snapshot's.
    const savedAt = Number((await sql<{ now: number }>`select ${clockNow()} as now`.execute(db)).rows[0].now);
    if (!(await catchUp(db, table, state)) || database.tables.get(key) !== state) continue;
    const out = new SnapshotWriter();
    const { side, columns, snapshot, number } = state;
    const { system, database: oid } = keep;
    writeSavedHeader(out, { system, database: oid, table, side, columns, snapshot, number, savedAt });
    state.index.write(out);
    state.sequence.write(out);
    state.values.write(out);
    await writeSnapshotFile(snapshotPath(keep.folder, table), out);
    saved.push(table);
  }
  if (saved.length > 0) await removeGoneDatabases(db, keep);
  return saved;
}

/**
 * Removes the saved indexes of this cluster's databases that no longer exist (a dropped database's
 * oid is never used again for another until the oid counter wraps).
 */
async function removeGoneDatabases(db: Kysely<unknown>, keep: Keeping): Promise<void> {
  const root = dirname(keep.folder);
  const { rows } = await sql<{ oid: string }>`select oid::text as oid from pg_database`.execute(db);
  const live = new Set(rows.map((row) => row.oid));
  for (const name of await readdir(root).catch(() => [] as string[])) {
    const match = /-(\d+)-(\d+)$/.exec(name);
    if (!match || match[2] !== keep.system || live.has(match[1])) continue;
    await rm(join(root, name), { recursive: true, force: true }).catch(() => {});
  }
}

/** Rows of `table`'s search table written by transactions `snapshot` did not see. */
async function writtenSince(db: Kysely<unknown>, table: string, snapshot: string): Promise<number> {
  const kept = sql`${snapshot}::pg_snapshot`;
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.id(searchTextName(table))}
    where ${sql.id(WRITTEN_BY)} >= pg_snapshot_xmin(${kept}) and not pg_visible_in_snapshot(${sql.id(WRITTEN_BY)}, ${kept})`.execute(
    db,
  );
  return Number(rows[0].n);
}

/**
 * The saved index of `table` for `columns`, when its file is there and may be brought in step
 * (see the module comment), else null; the keeping's `onUnused` hears why a file that was there was
 * not used. The file stays: other servers may read it too.
 */
async function loadSavedIndex(
  db: Kysely<unknown>,
  table: string,
  columns: readonly string[],
): Promise<TableState | null> {
  const keep = keeping.get(db);
  if (!keep) return null;
  const saved = await savedFile(snapshotPath(keep.folder, table));
  if (saved === null) return null;
  const notUsed = (reason: string) => {
    keep.onUnused?.(table, reason);
    return null;
  };
  try {
    const input = new SnapshotReader(saved.buffer, saved.tail);
    const header = readSavedHeader(input);
    if (!header || header.table !== table) return notUsed(DAMAGED_SNAPSHOT);
    if (!sameColumns(header.columns, columns)) return notUsed('the searched columns changed since it was saved');
    const { side, snapshot, number, savedAt } = header;
    if (header.system !== keep.system || header.database !== keep.database) {
      return notUsed('it was saved for another database');
    }
    const { rows } = await sql<{ side: string | null; now: number }>`select
      ${searchTableOid(table)} as side, ${clockNow()} as now`.execute(db);
    const age = Number(rows[0].now) - savedAt;
    if (rows[0].side !== side) return notUsed('its search table was made again since it was saved');
    if (!(age >= 0 && age < MAX_STEP_AGE_MS)) {
      return notUsed(
        `it was saved ${describeAge(age)} by the database's clock (it is trusted for ${describeAge(MAX_STEP_AGE_MS, '')})`,
      );
    }
    const index = MemorySearchIndex.read(input);
    const sequence = IdSequence.read(input);
    const values = ValueColumns.read(input);
    if (!input.done) return notUsed(DAMAGED_SNAPSHOT);
    // Rows written since by the thousand (an import by another process, say): taken in one by one
    // they would cost more than a build, and leave an index no longer compact.
    const written = await writtenSince(db, table, snapshot);
    if (written > index.rows * REBUILD_SHARE + REBUILD_MIN) {
      return notUsed(`${written} rows were written since it was saved (building it again is quicker)`);
    }
    return inStepAt({ columns, index, sequence, values, snapshot, number, side, checkedAt: Date.now() - age });
  } catch (error) {
    if (error instanceof SnapshotFormatError || error instanceof RangeError) return notUsed(DAMAGED_SNAPSHOT);
    throw error;
  }
}

/** An age in whole days for people ("7 days ago"), or "in the future" (the clock went back since). */
function describeAge(ms: number, ago = ' ago'): string {
  if (!(ms >= 0)) return 'in the future';
  const days = Math.floor(ms / (24 * 3_600_000));
  return `${days} day${days === 1 ? '' : 's'}${ago}`;
}

/** How many indexes of `db` were read back rather than built (for tests). */
export function savedIndexesReadForTests(db: Kysely<unknown>): number {
  return stateOf(db).loaded;
}
