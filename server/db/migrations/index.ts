import type { Kysely, Migration, MigrationProvider } from 'kysely';
import * as registry from './001-content-type-registry.js';
import * as starterTypes from './002-starter-types.js';
import * as articleAndMenuTypes from './004-article-and-menu-types.js';
import * as searchIndex from './005-search-index.js';
import * as updatedAtIndex from './006-updated-at-index.js';
import * as searchIndexBatches from './007-search-index-batches.js';
import * as internalNamespace from './008-internal-namespace.js';
import * as registryVersion from './009-registry-version.js';
import * as mediaTable from './010-media-table.js';
import * as listIndexes from './011-list-indexes.js';
import * as accounts from './012-accounts.js';
import * as revisions from './013-revisions.js';
import * as searchDeletesNoted from './014-search-deletes-noted.js';
import * as schedulesAndHooks from './015-schedules-and-hooks.js';
import * as rowChanges from './016-row-changes.js';
import * as listIndexNullOrder from './017-list-index-null-order.js';
import * as searchIndexInMemory from './018-search-index-in-memory.js';
import * as changeNumberFunction from './019-change-number-function.js';
import * as searchRowNumbers from './020-search-row-numbers.js';
import * as orderKeyColumns from './021-order-key-columns.js';
import * as registryCheck from './022-registry-check.js';
import * as slugGapTokens from './023-slug-gap-tokens.js';
import * as siteSettings from './024-site-settings.js';
import * as twoFactor from './025-two-factor.js';
import * as auditLog from './026-audit-log.js';
import * as accountIdentities from './027-account-identities.js';
import * as revisionOrigins from './028-revision-origins.js';
import * as accountLanguage from './029-account-language.js';
import * as changeFeed from './030-change-feed.js';
import * as mediaAssets from './032-media-assets.js';
import * as siteLocales from './033-site-locales.js';
import * as searchTextColumns from './035-search-text-columns.js';
import * as hookEventLocales from './036-hook-event-locales.js';
import type { MigrationEngine } from './migration-engine.js';

/** A migration's `up`: those with engine-specific steps find them in `engine.migrations`, under their name. */
type Up = (db: Kysely<unknown>, engine: MigrationEngine) => Promise<void>;

/**
 * The schema's history, in order. Kysely records the applied names in `kysely_migration`, which is
 * the database's schema version; a database is migrated forward when it is opened.
 */
const MIGRATIONS: Record<string, { up: Up }> = {
  '001-content-type-registry': registry,
  '002-starter-types': starterTypes,
  '004-article-and-menu-types': articleAndMenuTypes,
  '005-search-index': searchIndex,
  '006-updated-at-index': updatedAtIndex,
  '007-search-index-batches': searchIndexBatches,
  '008-internal-namespace': internalNamespace,
  '009-registry-version': registryVersion,
  '010-media-table': mediaTable,
  '011-list-indexes': listIndexes,
  '012-accounts': accounts,
  '013-revisions': revisions,
  '014-search-deletes-noted': searchDeletesNoted,
  '015-schedules-and-hooks': schedulesAndHooks,
  '016-row-changes': rowChanges,
  '017-list-index-null-order': listIndexNullOrder,
  '018-search-index-in-memory': searchIndexInMemory,
  '019-change-number-function': changeNumberFunction,
  '020-search-row-numbers': searchRowNumbers,
  '021-order-key-columns': orderKeyColumns,
  '022-registry-check': registryCheck,
  '023-slug-gap-tokens': slugGapTokens,
  '024-site-settings': siteSettings,
  '025-two-factor': twoFactor,
  '026-audit-log': auditLog,
  '027-account-identities': accountIdentities,
  '028-revision-origins': revisionOrigins,
  '029-account-language': accountLanguage,
  '030-change-feed': changeFeed,
  '032-media-assets': mediaAssets,
  '033-site-locales': siteLocales,
  '035-search-text-columns': searchTextColumns,
  '036-hook-event-locales': hookEventLocales,
};

/** The migrations' names in the order they run (what `kysely_migration` lists once all have). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/**
 * Provides the migrations compiled into the app (no file-system scanning, so it works packaged),
 * each running on `engine` (a `DatabaseEngine`: its `migrations` are the engine's steps).
 */
export function migrationProvider(engine: MigrationEngine): MigrationProvider {
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, migration]) => [name, { up: (db) => migration.up(db, engine) }]),
  );
  return { getMigrations: async () => migrations };
}
