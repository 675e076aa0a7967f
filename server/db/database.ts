import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { Kysely, Migrator } from 'kysely';
import type { DatabaseEngine } from './engine.js';
import { migrationProvider } from './migrations/index.js';
import type { QuireDatabase } from './schema.js';
import { openSqlite, type SqliteOptions } from './sqlite-dialect.js';
import { sqliteEngine } from './sqlite-engine.js';
import { sqliteStatementRunner } from './sqlite-statement-runner.js';
import type { StatementRunner } from './statement-runner.js';

/**
 * An open Quire database: the Kysely instance, the engine behind it (everything engine-specific the
 * repositories need), the raw handle for SQLite-only chores, its file.
 */
export interface QuireDb {
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  raw: Database.Database;
  /** Runs compiled reads as reused prepared statements (the hot read path). */
  runner: StatementRunner;
  file: string;
  close(): Promise<void>;
}

/**
 * Opens a database file (creating it and its folder if missing) and migrates it to the current
 * schema. A file that is not a SQLite database fails here with a clear error, before serving.
 */
export async function openDatabase(file: string, options: SqliteOptions = {}): Promise<QuireDb> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const { raw, dialect, statements } = openSqlite(file, options);
  const db = new Kysely<QuireDatabase>({ dialect });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider(sqliteEngine) }).migrateToLatest();
    if (error) throw error;
  } catch (error) {
    await db.destroy();
    throw error;
  }
  let closed = false;
  return {
    db,
    engine: sqliteEngine,
    raw,
    runner: sqliteStatementRunner(raw, statements),
    file,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}
