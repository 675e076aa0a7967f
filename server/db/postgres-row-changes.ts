import { type AliasableExpression, type Kysely, sql } from 'kysely';

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

/** Rows per content table: more than the connections of a few servers' pools. */
const SHARDS = 64;

/** Creates the table of change numbers. */
export async function createRowChangesTable(db: Kysely<unknown>): Promise<void> {
  await sql`create table if not exists ${sql.id(ROW_CHANGES_TABLE)} (
    table_name text collate "C" not null,
    shard integer not null,
    changes bigint not null,
    primary key (table_name, shard))`.execute(db);
}

/** Raises `table`'s change number; run in the write's transaction, so it commits with the rows. */
export async function rowsChanged(db: Kysely<unknown>, table: string): Promise<void> {
  const changes = sql.id(ROW_CHANGES_TABLE);
  await sql`insert into ${changes} (table_name, shard, changes)
    values (${table}, mod(pg_backend_pid(), ${SHARDS}), 1)
    on conflict (table_name, shard) do update set changes = ${changes}.changes + 1`.execute(db);
}

/** `table`'s change number now, as text (`oid:registry version:row writes`). */
export function changeNumber(table: string): AliasableExpression<string> {
  return sql<string>`concat_ws(':',
    to_regclass(quote_ident(${table}))::oid,
    (select version from quire_registry_version where id = 1),
    (select coalesce(sum(changes), 0) from ${sql.id(ROW_CHANGES_TABLE)} where table_name = ${table}))`;
}
