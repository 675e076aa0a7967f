import { DEFAULT_MIGRATION_TABLE, type Kysely, type MigrationProvider, Migrator } from 'kysely';
import type { DatabaseEngine } from './engine.js';
import { migrationProvider } from './migrations/index.js';
import { fillAfterMigration, SEARCH_TEXT_MIGRATION } from './queries/search-text-columns.js';
import type { QuireDatabase } from './schema.js';

/**
 * Migrates a database just opened to the current schema; the names of the migrations this call
 * ran (and what follows one of them: `fillAfterMigration`). On failure the connection is closed
 * and the error thrown.
 */
export async function migrateDatabase(db: Kysely<QuireDatabase>, engine: DatabaseEngine): Promise<string[]> {
  try {
    const provider = migrationProvider(engine);
    if (await migratedAlready(db, provider)) return [];
    const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
    if (error) throw error;
    const ran = (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
    if (ran.includes(SEARCH_TEXT_MIGRATION)) await fillAfterMigration(db as unknown as Kysely<unknown>, engine);
    return ran;
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/**
 * Whether `db` has run exactly the migrations `provider` has (the usual start): one statement,
 * where the Migrator would first look its tables up in the catalog and take its lock. Anything else
 * (a new database, migrations to run, a database a newer Quire migrated) is the Migrator's to
 * handle. Migrations commit with their names, so every name present means every migration committed.
 */
async function migratedAlready(db: Kysely<QuireDatabase>, provider: MigrationProvider): Promise<boolean> {
  const wanted = Object.keys(await provider.getMigrations());
  let ran: string[];
  try {
    const untyped = db as unknown as Kysely<Record<string, { name: string }>>;
    ran = (await untyped.selectFrom(DEFAULT_MIGRATION_TABLE).select('name').execute()).map((row) => row.name);
  } catch {
    return false;
  }
  const done = new Set(ran);
  return ran.length === wanted.length && wanted.every((name) => done.has(name));
}
