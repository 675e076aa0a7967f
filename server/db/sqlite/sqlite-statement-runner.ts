import type Database from 'better-sqlite3';
import { ChangeTokenSharing } from '../queries/change-token-sharing.js';
import type { ConnectionTransaction, StatementRunner } from '../statement-runner.js';
import type { SqliteStatements } from './sqlite-dialect.js';
import { SqliteRowShapes } from './sqlite-row-shapes.js';

/**
 * The SQLite statement runner: statements from the connection's one statement cache (shared with
 * Kysely), rows made here from raw rows (sqlite-row-shapes.ts), and `PRAGMA data_version` as the
 * external change token (SQLite changes it exactly when another connection commits), shared by the
 * reads of requests that arrived together (change-token-sharing.ts says why that stays fresh).
 */
export function sqliteStatementRunner(raw: Database.Database, statements: SqliteStatements): StatementRunner {
  const dataVersion = raw.prepare('pragma data_version').pluck();
  const rows = new SqliteRowShapes(() => statements.schemaChanges);
  const changeTokens = new ChangeTokenSharing();
  return {
    async all(sql, parameters) {
      return rows.all(statements.prepare(sql), parameters);
    },
    async run(sql, parameters) {
      return statements.prepare(sql).run(...parameters).changes;
    },
    externalChangeToken: changeTokens.shared(() => dataVersion.get() as number),
    changeTokens,
    schemaChanges: () => statements.schemaChanges,
    transaction: sqliteTransaction(raw),
  };
}

/**
 * Group-commit transaction control on one SQLite connection (prepared once: these run per write).
 *
 * A batch keeps its savepoints' journal in memory (`temp_store=memory` from BEGIN, when SQLite
 * decides, to the end of the transaction): each write's savepoint journals every page it changes,
 * which on a table with many indexes passes SQLite's spill threshold, and with temp files that
 * journal would go to a file created for each batch, written a page at a time. Only for the
 * batch: a connection with temp storage in memory also sorts in memory (index builds at an import
 * or a content-type change would be slower, and all of it in the server's RSS).
 */
function sqliteTransaction(raw: Database.Database): ConnectionTransaction {
  // IMMEDIATE takes the write lock up front (waiting busy_timeout for another process's writer), so
  // no write of the batch can fail later with SQLITE_BUSY on upgrading a read lock.
  const begin = raw.prepare('begin immediate');
  const savepoint = raw.prepare('savepoint quire_write');
  const release = raw.prepare('release quire_write');
  const rollbackTo = raw.prepare('rollback to quire_write');
  const commit = raw.prepare('commit');
  const rollback = raw.prepare('rollback');
  // Not prepared: SQLite applies `pragma temp_store = ...` when it compiles it, so a prepared one
  // would change nothing when run again.
  const journalInMemory = () => raw.exec('pragma temp_store = memory');
  const journalAsBefore = () => raw.exec('pragma temp_store = default');
  /** Runs `end` (it closes the transaction, or fails to open one), then puts temp storage back. */
  const thenAsBefore = (end: Database.Statement) => {
    try {
      end.run();
    } finally {
      // Never inside a transaction (SQLite refuses): a COMMIT that failed may leave it open, and
      // then the ROLLBACK that follows puts it back.
      if (!raw.inTransaction) journalAsBefore();
    }
  };
  return {
    begin: () => {
      journalInMemory();
      thenAsBefore(begin);
    },
    savepoint: () => void savepoint.run(),
    release: () => void release.run(),
    undo: () => {
      rollbackTo.run();
      release.run();
    },
    commit: () => thenAsBefore(commit),
    rollback: () => thenAsBefore(rollback),
    get open() {
      return raw.inTransaction;
    },
  };
}
