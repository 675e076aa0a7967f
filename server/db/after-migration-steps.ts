import type { AfterMigrations } from './database-migrate.js';
import { fillMissingSearchTexts, SEARCH_TEXT_MIGRATION } from './queries/search-text-columns.js';

/**
 * What follows the migrations that leave work to today's code, by migration name: every database
 * opened runs these after migrating (database-migrate.ts), whichever engine it is on.
 */
export const AFTER_MIGRATION_STEPS: AfterMigrations = {
  // Search text is derived by today's field types, which a frozen migration cannot hold.
  [SEARCH_TEXT_MIGRATION]: fillMissingSearchTexts,
};
