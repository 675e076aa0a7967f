import { type AliasableExpression, type Kysely, sql } from 'kysely';
import { sendLater } from '../queries/later-statements.js';

/**
 * PostgreSQL's change numbers of content tables (see engine.ts `RowChangeCounter`): several servers
 * may share the database, so a count one server keeps in memory is checked against a number every
 * row write raises in its own transaction, read in the same statement as the count.
 *
 * Each write adds 1 to one of SHARDS rows of its table (chosen by the connection's backend, so
 * concurrent writers rarely wait on one row's lock until the other commits); a table's number is
 * the sum of its rows. Only increments ever commit, so under READ COMMITTED (each statement sees
 * every commit before it) two reads giving the same sum saw the same committed writes. The number
 * also carries the table's oid (a table dropped and made again starts anew) and the registry's
 * version (a content-type change can change values without a row write: a column dropped and added).
 */

/** The table of change numbers (made by migration 016). */
export const ROW_CHANGES_TABLE = 'quire_row_changes';

/** Rows per content table, numbered from 0: more than the connections of a few servers' pools. */
export const SHARDS = 64;

/**
 * The function that reads a table's change number. Gets and lists read it in their own statement
 * (read-marks.ts); written there as subqueries it would be planned again by every statement (more
 * planning than running, on a get by id), where a PL/pgSQL function keeps its plans for the
 * connection. `stable`: its queries see the snapshot of the statement calling it.
 */
const CHANGE_NUMBER_FUNCTION = 'quire_change_number';

/** Creates the table of change numbers and the function that reads them (again: both are kept as they are). */
export async function createRowChangesTable(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists ${sql.id(ROW_CHANGES_TABLE)} (
    table_name text collate "C" not null,
    shard integer not null,
    changes bigint not null,
    primary key (table_name, shard))`.execute(db);
  await createSumFunction(db, CHANGE_NUMBER_FUNCTION, 'changes');
}

/**
 * Creates (or replaces) the function `name(t)`: `t`'s oid, the registry's version and the sum of
 * `column` over `t`'s shards, as text.
 */
async function createSumFunction(db: Kysely<unknown>, name: string, column: 'changes' | 'gaps'): Promise<void> {
  await sql`create or replace function ${sql.id(name)}(t text) returns text
    language plpgsql stable as $$
    begin
      return concat_ws(':',
        to_regclass(quote_ident(t))::oid,
        (select version from quire_registry_version where id = 1),
        (select coalesce(sum(${sql.id(column)}), 0) from ${sql.id(ROW_CHANGES_TABLE)} where table_name = t));
    end $$`.execute(db);
}

/**
 * The function that reads a table's gap token (see `gapToken`), for the same reason as
 * CHANGE_NUMBER_FUNCTION: a statement reading it keeps its plan.
 */
const GAP_TOKEN_FUNCTION = 'quire_gap_token';

/**
 * Adds each shard's count of the writes that may free a slug (updates and deletes) and the function
 * reading a table's (migration 023): creates of one title on PostgreSQL then probe the slugs after
 * the last they learnt was taken, as SQLite's do with its read cache (content/slug-picker.ts),
 * instead of reading every `base-N` taken so far.
 */
export async function createGapTokens(db: Kysely<unknown>): Promise<void> {
  await sql`alter table ${sql.id(ROW_CHANGES_TABLE)} add column if not exists gaps bigint not null default 0`.execute(
    db,
  );
  await createSumFunction(db, GAP_TOKEN_FUNCTION, 'gaps');
}

/**
 * Raises `table`'s change number, and its gap token unless the write `onlyAdds`; run in the write's
 * transaction, so it commits with the rows.
 */
export async function rowsChanged(db: Kysely<unknown>, table: string, onlyAdds: boolean): Promise<void> {
  const changes = sql.id(ROW_CHANGES_TABLE);
  const raise = onlyAdds
    ? sql`insert into ${changes} (table_name, shard, changes)
    values (${table}, mod(pg_backend_pid(), ${SHARDS}), 1)
    on conflict (table_name, shard) do update set changes = ${changes}.changes + 1`
    : sql`insert into ${changes} (table_name, shard, changes, gaps)
    values (${table}, mod(pg_backend_pid(), ${SHARDS}), 1, 1)
    on conflict (table_name, shard) do update set changes = ${changes}.changes + 1, gaps = ${changes}.gaps + 1`;
  await db.executeQuery(sendLater(raise.compile(db)));
}

/**
 * `table`'s gap token now (`oid:registry version:updates and deletes`), read in the statement's own
 * snapshot: a scalar subquery, run once per statement.
 */
export function gapToken(table: string): AliasableExpression<string> {
  return sql<string>`(select ${sql.id(GAP_TOKEN_FUNCTION)}(${table}))`;
}

/**
 * `table`'s change number now, as text (`oid:registry version:row writes`). A scalar subquery, so
 * PostgreSQL runs the function once per statement (an InitPlan) rather than once or twice per row
 * of a page.
 */
export function changeNumber(table: string): AliasableExpression<string> {
  return sql<string>`(select ${sql.id(CHANGE_NUMBER_FUNCTION)}(${table}))`;
}

/** The registry's version a change number was read at (its middle part). */
export function registryVersionOf(number: string): number {
  return Number(number.split(':')[1]);
}

/**
 * Whether `held` was read after every write `seen` counts: the same table and registry (the first
 * two parts), and at least as many writes (only increments ever commit).
 */
export function changeNumberCovers(held: string, seen: string): boolean {
  const parts = (number: string) => {
    const at = number.lastIndexOf(':');
    return { prefix: number.slice(0, at), writes: BigInt(number.slice(at + 1)) };
  };
  const a = parts(held);
  const b = parts(seen);
  return a.prefix === b.prefix && a.writes >= b.writes;
}
