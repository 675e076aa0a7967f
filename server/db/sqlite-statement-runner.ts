import type Database from 'better-sqlite3';
import type { StatementRunner } from './statement-runner.js';

/** How many read statements to keep prepared; a running server has few query shapes. */
const MAX_STATEMENTS = 200;

/**
 * The SQLite statement runner: prepared statements reused by SQL text, and `PRAGMA data_version`
 * as the external change token (SQLite changes it exactly when another connection commits).
 */
export function sqliteStatementRunner(raw: Database.Database): StatementRunner {
  const statements = new Map<string, Database.Statement>();
  const dataVersion = raw.prepare('pragma data_version').pluck();
  const prepare = (source: string): Database.Statement => {
    let statement = statements.get(source);
    if (!statement) {
      statement = raw.prepare(source);
      if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value as string);
      statements.set(source, statement);
    }
    return statement;
  };
  return {
    async all(sql, parameters) {
      return prepare(sql).all(...parameters) as Record<string, unknown>[];
    },
    async run(sql, parameters) {
      return prepare(sql).run(...parameters).changes;
    },
    externalChangeToken: () => dataVersion.get() as number,
  };
}
