import type Database from 'better-sqlite3';
import { sharedChangeToken } from './change-token-sharing.js';
import type { SqliteStatements } from './sqlite-dialect.js';
import type { ConnectionTransaction, StatementRunner } from './statement-runner.js';

/**
 * The SQLite statement runner: statements from the connection's one statement cache (shared with
 * Kysely), and `PRAGMA data_version` as the external change token (SQLite changes it exactly when
 * another connection commits), shared by the reads of requests that arrived together
 * (change-token-sharing.ts says why that stays fresh).
 */
export function sqliteStatementRunner(raw: Database.Database, statements: SqliteStatements): StatementRunner {
  const dataVersion = raw.prepare('pragma data_version').pluck();
  return {
    async all(sql, parameters) {
      return statements.prepare(sql).all(...parameters) as Record<string, unknown>[];
    },
    async run(sql, parameters) {
      return statements.prepare(sql).run(...parameters).changes;
    },
    externalChangeToken: sharedChangeToken(() => dataVersion.get() as number),
    transaction: sqliteTransaction(raw),
  };
}

/** Group-commit transaction control on one SQLite connection (prepared once: these run per write). */
function sqliteTransaction(raw: Database.Database): ConnectionTransaction {
  // IMMEDIATE takes the write lock up front (waiting busy_timeout for another process's writer), so
  // no write of the batch can fail later with SQLITE_BUSY on upgrading a read lock.
  const begin = raw.prepare('begin immediate');
  const savepoint = raw.prepare('savepoint quire_write');
  const release = raw.prepare('release quire_write');
  const rollbackTo = raw.prepare('rollback to quire_write');
  const commit = raw.prepare('commit');
  const rollback = raw.prepare('rollback');
  return {
    begin: () => void begin.run(),
    savepoint: () => void savepoint.run(),
    release: () => void release.run(),
    undo: () => {
      rollbackTo.run();
      release.run();
    },
    commit: () => void commit.run(),
    rollback: () => void rollback.run(),
    get open() {
      return raw.inTransaction;
    },
  };
}
