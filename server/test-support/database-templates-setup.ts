import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPostgresDatabase } from '../db/database.js';
import { openDatabase } from '../db/sqlite/sqlite-database.js';
import { createTestDatabase, postgresForTests, type TestDatabase } from './postgres.js';

/** The migrated databases of a run that test servers start from as copies (null: none made). */
export interface DatabaseTemplates {
  /** A SQLite file, closed. */
  sqlite: string | null;
  /** The name of a PostgreSQL database on the test server, nobody connected to it. */
  postgres: string | null;
}

declare module 'vitest' {
  export interface ProvidedContext {
    quireDatabaseTemplates: DatabaseTemplates;
  }
}

/**
 * Vitest global setup of the projects whose tests start test servers: a database migrated to the
 * current schema, made once per run (and per engine the project runs on), that each test server's
 * database starts as a copy of (test-server.ts) instead of migrating a new one, which takes a
 * second or more apiece. Opening the copy is a start on a migrated database, as every restart is;
 * the run's code made it, so it is never stale. Removed after the run.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(join(tmpdir(), 'quire-test-templates-'));
  const sqlite = join(dir, 'template.sqlite');
  await (await openDatabase(sqlite)).close();
  let postgres: TestDatabase | null = null;
  if (project.config.env?.QUIRE_TEST_ENGINE === 'postgres') {
    const server = await postgresForTests();
    if (server.available) {
      postgres = await createTestDatabase(server.url);
      await (await openPostgresDatabase(postgres.target)).close();
    }
  }
  project.provide('quireDatabaseTemplates', { sqlite, postgres: postgres?.name ?? null });
  return async () => {
    await postgres?.drop();
    rmSync(dir, { recursive: true, force: true });
  };
}
