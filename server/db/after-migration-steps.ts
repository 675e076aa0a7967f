import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { documentOf } from '../locales/locale-service.js';
import { otherLocales } from '../locales/localized-values.js';
import type { AfterMigration, AfterMigrations } from './database-migrate.js';
import {
  fillMissingSearchTexts,
  indexedColumnsOfTable,
  indexedSearchColumnsOf,
  SEARCH_TEXT_MIGRATION,
} from './queries/search-text-columns.js';
import { LocaleRepository } from './repositories/locale-repository.js';
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

/** The migration that stores the site's locales. */
const SITE_LOCALES_MIGRATION = '033-site-locales';

/**
 * A content table's search index follows every locale's search columns, so that a search in any
 * locale is answered by an index of its own; one made when it followed the default locale's only
 * would leave searches in the other locales to the plain scan until the type or the locales
 * change. So at every start each table with localized search columns under the site's locales has
 * its index ensured over all of them: `ensure` leaves one already right as it is after one look
 * (SQLite: its triggers in sqlite_master), and a site with one locale looks at no table.
 */
const followEveryLocaleInSearch: AfterMigration = async (db, engine) => {
  const document = documentOf(await new LocaleRepository(db as Kysely<QuireDatabase>).read());
  if (otherLocales(document).length === 0) return;
  const registry = db as Kysely<{ quire_content_types: { table_name: string; columns: string } }>;
  const types = await registry.selectFrom('quire_content_types').select(['table_name', 'columns']).execute();
  for (const type of types) {
    const columns = JSON.parse(type.columns) as ColumnDescriptor[];
    const indexed = indexedColumnsOfTable(columns, document);
    if (indexed.length === indexedSearchColumnsOf(columns).length) continue;
    if (!(await engine.schema.hasTable(db, type.table_name))) continue;
    await db.transaction().execute((trx) => engine.searchIndex.ensure(trx, type.table_name, indexed));
  }
};

/**
 * What follows the migrations that leave work to today's code, by migration name: every database
 * opened runs these after migrating (database-migrate.ts), whichever engine it is on.
 */
export const AFTER_MIGRATION_STEPS: AfterMigrations = {
  // Search text is derived by today's field types, which a frozen migration cannot hold.
  [SITE_LOCALES_MIGRATION]: followEveryLocaleInSearch,
  [SEARCH_TEXT_MIGRATION]: fillSearchTextsUntilDone,
};
