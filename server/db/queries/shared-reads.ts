import type { CompiledQuery, Kysely } from 'kysely';

/**
 * Reads that may run on any connection: plain SELECTs of the hot read path (a row, a list's page,
 * its counts, a search's page) with no effect on the session that runs them. Outside a transaction,
 * PostgreSQL runs such reads on a connection shared with the other reads in flight, sent together
 * in one write and answered in one (postgres-shared-reads.ts). Inside a transaction, and on SQLite,
 * the mark changes nothing: the read runs where it would have.
 */
const anywhere = new WeakSet<CompiledQuery>();

/** Marks `query` as a read that may share a connection (see above) and returns it. */
export function readAnywhere<T extends CompiledQuery>(query: T): T {
  anywhere.add(query);
  return query;
}

/** Whether `query` was marked by `readAnywhere`. */
export function mayReadAnywhere(query: CompiledQuery): boolean {
  return anywhere.has(query);
}

/** The rows of a read run through `db` marked `readAnywhere`. */
export async function readRowsAnywhere<R>(
  db: { executeQuery: Kysely<unknown>['executeQuery'] },
  query: CompiledQuery,
): Promise<R[]> {
  return (await db.executeQuery<R>(readAnywhere(query))).rows;
}
