import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../db/database.js';
import { createTestDatabase, postgresForTests } from './postgres.js';
import { type TestEngine, testEngine } from './test-server.js';

/** A database opened directly (no server), of the engine the suite runs on. */
export interface OpenTestDatabase {
  database: QuireDb;
  /** Closes it and removes it (the SQLite folder, or the throwaway PostgreSQL database). */
  dispose(): Promise<void>;
}

/**
 * Opens a fresh, migrated database of `engine` (by default the one `testEngine()` names), for
 * suites that build their apps or services themselves: a SQLite file in a temporary folder, or a
 * throwaway PostgreSQL database (QUIRE_TEST_ENGINE=postgres, the `server-pg` project), which must
 * be there.
 */
export async function openTestDatabase(engine: TestEngine = testEngine()): Promise<OpenTestDatabase> {
  if (engine === 'postgres') {
    const postgres = await postgresForTests();
    if (!postgres.available) throw new Error(`QUIRE_TEST_ENGINE=postgres, but ${postgres.skipReason}`);
    const made = await createTestDatabase(postgres.url);
    let database: QuireDb;
    try {
      database = await openPostgresDatabase(made.target);
    } catch (error) {
      await made.drop();
      throw error;
    }
    return {
      database,
      async dispose() {
        await database.close();
        await made.drop();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'quire-db-'));
  const database = await openDatabase(join(dir, 'content.sqlite'));
  return {
    database,
    async dispose() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
