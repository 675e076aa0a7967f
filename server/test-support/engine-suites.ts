import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe } from 'vitest';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../db/database.js';
import { postgresForTests, skipNote, useTestDatabase } from './postgres.js';

/** The database a suite of `describeOnBothEngines` runs on: there once the suite's `beforeAll` ran. */
export interface EngineSuiteDatabase {
  /** The opened database; its engine says which one. */
  readonly quire: QuireDb;
  /** The same database untyped, for statements on content tables, which the schema types do not list. */
  readonly schema: Kysely<unknown>;
}

/**
 * Describes `suite` on each engine, each over a database opened before its tests and closed after
 * them: `TITLE on SQLite` in memory, `TITLE on PostgreSQL` in a throwaway database (skipped,
 * saying why, where there is no PostgreSQL). For suites that work below the server, on tables and
 * statements; a suite through the API runs on each engine by its project instead (test-engines.ts).
 */
export async function describeOnBothEngines(
  title: string,
  suite: (database: EngineSuiteDatabase) => void,
): Promise<void> {
  const postgres = await postgresForTests();
  describe(`${title} on SQLite`, () => {
    suite(openedAround(() => openDatabase(':memory:')));
  });
  describe.skipIf(!postgres.available)(`${title} on PostgreSQL${skipNote(postgres)}`, () => {
    const database = useTestDatabase(postgres.url);
    suite(openedAround(() => openPostgresDatabase(database().target)));
  });
}

/** The database `open` makes before the enclosing suite's tests, closed after them. */
function openedAround(open: () => Promise<QuireDb>): EngineSuiteDatabase {
  let opened: QuireDb | undefined;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(async () => {
    await opened?.close();
  });
  const quire = (): QuireDb => {
    if (!opened) throw new Error('The suite database is opened in beforeAll');
    return opened;
  };
  return {
    get quire() {
      return quire();
    },
    get schema() {
      return quire().db as unknown as Kysely<unknown>;
    },
  };
}
