import type { Kysely } from 'kysely';
import type { AfterMigration, AfterMigrations } from './database-migrate.js';
import { fillMissingSearchTexts, SEARCH_TEXT_MIGRATION } from './queries/search-text-columns.js';
import { SettingsRepository } from './repositories/settings-repository.js';
import type { QuireDatabase } from './schema.js';

/**
 * The setting that says the fill after `SEARCH_TEXT_MIGRATION` finished: every row has its search
 * text from then on (every write and type change writes it), so later starts look at no table.
 * Its value is the migration's name.
 */
export const SEARCH_TEXTS_FILLED = 'search_texts_filled';

/**
 * The search text fill until it has finished once: a start stopped midway leaves no mark, so the
 * next one fills what is left; a start after a finished fill reads one setting instead of one look
 * per table with body columns (a scan on a large table without its text).
 */
const fillSearchTextsUntilDone: AfterMigration = async (db, engine) => {
  const settings = new SettingsRepository(db as Kysely<QuireDatabase>);
  if (await settings.get(SEARCH_TEXTS_FILLED)) return;
  await fillMissingSearchTexts(db, engine);
  await settings.set(SEARCH_TEXTS_FILLED, SEARCH_TEXT_MIGRATION, null);
};

/**
 * What follows the migrations that leave work to today's code, by migration name: every database
 * opened runs these after migrating (database-migrate.ts), whichever engine it is on.
 */
export const AFTER_MIGRATION_STEPS: AfterMigrations = {
  // Search text is derived by today's field types, which a frozen migration cannot hold.
  [SEARCH_TEXT_MIGRATION]: fillSearchTextsUntilDone,
};
