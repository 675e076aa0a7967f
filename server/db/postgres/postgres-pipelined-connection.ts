import type { CompiledQuery, DatabaseConnection, QueryResult } from 'kysely';
import type pg from 'pg';
import { isSentLater } from '../queries/later-statements.js';

/**
 * One pooled PostgreSQL connection as Kysely sees it, sending a transaction's statements in as few
 * round trips as their results allow (node-postgres' pipeline mode, `pipeline: true` on the pool).
 *
 * A create was eight round trips (BEGIN, slug lock, slug read, row, change number, search text,
 * revision, COMMIT), each paid twice: a wait for the answer, and a `writev` into the kernel, whose
 * loopback path runs the receiving side in the sender's call (about a fifth of the server's time under
 * 16 writers). BEGIN and the statements marked `sendLater` are now written but not sent: they go
 * out, in one write, with the next statement whose result is awaited, and the server runs them in
 * order. A create of a new title is one round trip: [BEGIN, lock, row, change number, search text,
 * revision, COMMIT] (its slug is taken without a read: content/slug-picker.ts); one that reads its
 * slugs is two: [BEGIN, lock, slug read] and the rest.
 *
 * A statement sent later fails the statement it went with: the first such failure is thrown there
 * (the COMMIT of a transaction a later statement broke would otherwise answer ROLLBACK as if all
 * were well). Outside a transaction every statement is sent and awaited at once.
 */
export class PipelinedConnection implements DatabaseConnection {
  /** Answers of statements sent later, not yet looked at. */
  private sentLater: Promise<unknown>[] = [];
  /** Whether statements are being held in the socket's buffer until the next awaited one. */
  private corked = false;
  /** Whether a transaction is open (between BEGIN and COMMIT or ROLLBACK). */
  private inTransaction = false;

  constructor(readonly client: pg.PoolClient) {}

  /** Starts a transaction: BEGIN goes with the transaction's first awaited statement. */
  begin(text: string): void {
    this.inTransaction = true;
    this.hold(text, []);
  }

  /** Ends the transaction with `text` (COMMIT or ROLLBACK), after every statement sent later. */
  async end(text: 'commit' | 'rollback'): Promise<void> {
    this.inTransaction = false;
    // A ROLLBACK undoes whatever failed before it; a COMMIT must tell it.
    await this.send(text, [], text === 'commit');
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction && isSentLater(query)) {
      this.hold(query.sql, query.parameters);
      return { rows: [] };
    }
    return kyselyResult(await this.send(query.sql, query.parameters, true));
  }

  // biome-ignore lint/correctness/useYield: Quire streams no PostgreSQL query (its cursors are SQL's own)
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on this connection');
  }

  /** Writes a statement into the socket's buffer, to leave with the next one sent. */
  private hold(text: string, parameters: readonly unknown[]): void {
    const stream = this.client.connection?.stream;
    if (!this.corked && typeof stream?.cork === 'function') {
      stream.cork();
      this.corked = true;
    }
    const answer = this.client.query(text, [...parameters]);
    // Looked at by the statement it goes with; until then a failure is not unhandled.
    answer.catch(() => {});
    this.sentLater.push(answer);
  }

  /** Sends `text` with everything held, and its result once those are answered. */
  private async send(text: string, parameters: readonly unknown[], tellEarlier: boolean): Promise<pg.QueryResult> {
    const answer = this.client.query(text, [...parameters]);
    if (this.corked) {
      this.corked = false;
      this.client.connection?.stream.uncork();
    }
    const earlier = this.sentLater;
    this.sentLater = [];
    let failure: { error: unknown } | null = null;
    for (const each of earlier) {
      try {
        await each;
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure && tellEarlier) {
      await answer.catch(() => {});
      throw failure.error;
    }
    return answer;
  }
}

/** node-postgres' result as Kysely's. */
export function kyselyResult<R>({ command, rowCount, rows }: pg.QueryResult): QueryResult<R> {
  return {
    numAffectedRows:
      command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE'
        ? BigInt(rowCount ?? 0)
        : undefined,
    rows: (rows ?? []) as R[],
  };
}
