import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { openPostgresDatabase } from './database.js';

/**
 * Opening a database that has run every migration skips Kysely's Migrator (database-migrate.ts
 * `migratedAlready`); anything else still goes through it. On PostgreSQL, where the Migrator takes
 * an advisory lock, a start on a migrated database does not wait for it.
 */

const postgres = await postgresForTests();

/** The advisory lock Kysely's PostgreSQL adapter takes while it migrates (kysely's postgres-adapter.js). */
const KYSELY_MIGRATION_LOCK = '3853314791062309107';

/** `promise`, or a rejection naming `what` after `ms` (a start that waits on a lock never settles). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} had not settled after ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(!postgres.available)(`opening a migrated database on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);

  /** Runs `body` with a session of its own holding the Migrator's lock. */
  async function withMigrationLockHeld(body: () => Promise<void>): Promise<void> {
    const holder = new pg.Client({ connectionString: database().url });
    await holder.connect();
    try {
      await holder.query(`select pg_advisory_lock(${KYSELY_MIGRATION_LOCK})`);
      await body();
    } finally {
      await holder.end();
    }
  }

  it('opens without the Migrator (and its lock) once every migration has run', async () => {
    // The first open migrates the new database.
    await (await openPostgresDatabase(database().target)).close();
    await withMigrationLockHeld(async () => {
      const again = await within(openPostgresDatabase(database().target), 10_000, 'the second open');
      await again.close();
    });
  });

  it('leaves a database with migrations it does not know to the Migrator, which refuses it', async () => {
    const client = new pg.Client({ connectionString: database().url });
    await client.connect();
    try {
      await client.query(
        `insert into kysely_migration (name, timestamp) values ('999-from-a-newer-quire', now()::text)`,
      );
      await expect(openPostgresDatabase(database().target)).rejects.toThrow(/999-from-a-newer-quire/);
    } finally {
      await client.query(`delete from kysely_migration where name = '999-from-a-newer-quire'`);
      await client.end();
    }
  });
});
