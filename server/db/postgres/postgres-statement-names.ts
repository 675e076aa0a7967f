import type pg from 'pg';

/**
 * Named (prepared) statements on PostgreSQL's connections. Kysely sends every statement unnamed, so
 * PostgreSQL parses and plans it each time; a get's one statement (read-marks.ts) took longer to
 * plan than to run. Named, a connection parses a text once and PostgreSQL may keep its plan: at
 * 100k rows distinct gets went from 6,400-7,100 to 9,100-9,900 requests/s, lists from 84 to 132,
 * creates from 960 to 1,140-1,200 (16 connections, interleaved runs).
 *
 * - Reads and row writes are named (`select`, `insert`, `update`, `delete`, `with`), up to
 *   MAX_NAMED texts per connection; anything else (transaction control, DDL) and texts past that
 *   run unnamed as before. A connection ends after CONNECTION_LIFETIME_S, and its statements with it.
 * - A named `select *` fails ("cached plan must not change result type") once its table's columns
 *   change. `forget()` (called when the content types are reloaded, after any server's change)
 *   makes every connection prepare its texts again under new names. A statement that fails so
 *   anyway (another server's change this one has not heard of yet) makes every connection forget,
 *   and is run again unnamed when it is outside a transaction; inside one the transaction has
 *   failed, and the row write runs again (`isStaleStatement`, RowService).
 * - A connection whose server does not know a name it prepared, or has it for another statement
 *   (a pooler in transaction mode in between, older than PgBouncer 1.21's prepared statements),
 *   stops naming and runs the statement again unnamed, likewise outside a transaction.
 */
export class StatementNames {
  /** Moved by `forget`: a connection that saw an older one starts its names afresh. */
  private generation = 0;

  /** Every connection prepares its statements again (their tables' columns may have changed). */
  forget(): void {
    this.generation++;
  }

  /** Names the statements of `client` from now on (call once per connection, when it is made). */
  attach(client: pg.ClientBase): void {
    // The class's query, looked up at each call: a wrapper of it installed later (a test's spy on
    // Client.prototype.query) still sees every statement.
    const own = Object.getPrototypeOf(client) as { query: (...args: unknown[]) => Promise<pg.QueryResult> };
    const run = (...args: unknown[]) => own.query.apply(client, args);
    const state = { names: new Map<string, string>(), generation: this.generation, made: 0, off: false, open: false };
    const named = (text: string): string | undefined => {
      if (state.generation !== this.generation) {
        state.names = new Map();
        state.generation = this.generation;
      }
      let name = state.names.get(text);
      // Every name made stays prepared on the server until the connection ends, forgotten or not.
      if (name === undefined && state.made < MAX_NAMED && NAMEABLE.test(text)) {
        name = `quire_${state.made++}`;
        state.names.set(text, name);
      }
      return name;
    };
    const query = (text: unknown, values?: unknown, callback?: unknown) => {
      // Only the form Kysely uses (text and values, a promise) is named; the rest passes through.
      if (typeof text !== 'string' || !Array.isArray(values) || callback !== undefined || state.off) {
        return run(text, values, callback);
      }
      if (BEGIN.test(text)) state.open = true;
      else if (END.test(text)) state.open = false;
      const name = named(text);
      if (name === undefined) return run(text, values);
      const inTransaction = state.open;
      return run({ name, text, values }).catch((error: unknown) => {
        const stale = staleness(error);
        if (stale === null) throw error;
        // Either way this text is not run under its name again: the connection names nothing more,
        // or every connection (whose statements on the table are as stale) starts its names afresh.
        if (stale === 'unknown name') state.off = true;
        else this.forget();
        if (inTransaction) throw error;
        return run(text, values);
      });
    };
    client.query = query as typeof client.query;
  }
}

/** Most texts one connection names (each stays prepared on the server until the connection ends). */
const MAX_NAMED = 100;

/** How long a connection lives (node-postgres' `maxLifetimeSeconds`): its prepared statements go with it. */
export const CONNECTION_LIFETIME_S = 3600;

/** Statements worth naming: reads and row writes. */
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** A transaction's start and end as Kysely sends them (`rollback to savepoint` keeps it open). */
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|end|rollback(?!\s+to\b))\b/i;

/** Whether `error` is a named statement's that went stale when its table's columns changed. */
export function isStaleStatement(error: unknown): boolean {
  return staleness(error) === 'columns changed';
}

/** Why a named statement failed where an unnamed one would not have, or null. */
function staleness(error: unknown): 'columns changed' | 'unknown name' | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, message } = error as { code?: unknown; message?: unknown };
  // 0A000 is also "feature not supported" in general: only this message is a stale plan.
  if (code === '0A000' && String(message).includes('cached plan must not change result type')) return 'columns changed';
  // 26000: the server does not know the name; 42P05: it knows it for another statement. Both mean a
  // pooler in transaction mode passes the connection's statements to other server sessions.
  if (code === '26000' || code === '42P05') return 'unknown name';
  return null;
}
