import { DEFAULT_MIGRATION_TABLE, type Kysely, type MigrationProvider, Migrator } from 'kysely';
import type { DatabaseEngine } from './engine.js';
import { MIGRATION_NAMES, migrationProvider } from './migrations/index.js';
import type { QuireDatabase } from './schema.js';

/**
 * Work that follows a migration and that the migration itself cannot hold, as it needs today's
 * code (deriving a column's values with today's field types, say). It runs at every start once its
 * migration has run, right after migrating, so a start stopped midway is finished by the next one:
 * it does only what is left, and is cheap when nothing is.
 */
export type AfterMigration = (db: Kysely<unknown>, engine: DatabaseEngine) => Promise<void>;

/** The steps that follow migrations, by the name of the migration each follows. */
export type AfterMigrations = Readonly<Record<string, AfterMigration>>;

/**
 * Migrates a database just opened to the current schema, then runs the steps `after` gives for
 * the migrations it has (in the migrations' order); the names of the migrations this call ran. On
 * failure the connection is closed and the error thrown.
 */
export async function migrateDatabase(
  db: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  after: AfterMigrations,
): Promise<string[]> {
  try {
    const unknown = Object.keys(after).filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) throw new Error(`Steps after migrations that do not exist: ${unknown.join(', ')}`);
    const provider = migrationProvider(engine);
    let ran: string[] = [];
    if (!(await migratedAlready(db, provider))) {
      const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
      if (error) throw error;
      ran = (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
    }
    // Every migration has run now (the Migrator refuses a database with others).
    for (const name of MIGRATION_NAMES) await after[name]?.(db as unknown as Kysely<unknown>, engine);
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
