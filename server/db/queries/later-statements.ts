import type { CompiledQuery } from 'kysely';

/**
 * Statements sent later: a write's bookkeeping whose result its caller never reads (the row
 * itself when it is new, its change number, search text and revision, the slug lock). Inside a
 * PostgreSQL transaction such a statement is not waited for: it goes to the server together with
 * the next statement that is (the slug read, the COMMIT), in one round trip, and the server still
 * runs them in order. Its failure is that next statement's failure, so the write fails and rolls
 * back as if it had been waited for (postgres-pipelined-connection.ts). Elsewhere (SQLite, or
 * outside a transaction) it runs at once, as any statement.
 */
const later = new WeakSet<CompiledQuery>();

/** Marks `query` to be sent later (see above) and returns it, to pass to `executeQuery`. */
export function sendLater<T extends CompiledQuery>(query: T): T {
  later.add(query);
  return query;
}

/** Whether `query` was marked by `sendLater`. */
export function isSentLater(query: CompiledQuery): boolean {
  return later.has(query);
}
