import type Database from 'better-sqlite3';
import type { SqliteStatements } from './sqlite-dialect.js';
import type { StatementRunner } from './statement-runner.js';

/**
 * The SQLite statement runner: statements from the connection's one statement cache (shared with
 * Kysely), and `PRAGMA data_version` as the external change token (SQLite changes it exactly when
 * another connection commits).
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
    externalChangeToken: () => dataVersion.get() as number,
  };
}
