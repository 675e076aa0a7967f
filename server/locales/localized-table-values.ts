import type { Kysely } from 'kysely';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { contentTypeFromRecord } from '../content/content-type.js';
import type { DatabaseEngine } from '../db/engine.js';
import { countOwnLocaleValues, restoreLocaleStorage } from '../db/repositories/content-schema-repository.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import type { LocaleValues } from './locale-service.js';
import { localizedColumnsOf } from './localized-values.js';

/**
 * The site's values per locale, as its content tables hold them: counted in, and stored again
 * for, every content type with localized columns, in the transaction of the change of the
 * locales (whose claim of the locales row a content-type change also takes, so none runs between).
 */
export function localizedTableValues(engine: DatabaseEngine): LocaleValues {
  return {
    async count(trx, stored, locales) {
      let total = 0;
      for (const { table, columns } of await localizedTypes(trx)) {
        total += await countOwnLocaleValues(schemaOf(trx), table, columns, stored, locales);
      }
      return total;
    },
    async change(trx, before, after) {
      for (const { table, columns } of await localizedTypes(trx)) {
        try {
          await restoreLocaleStorage(schemaOf(trx), engine, table, columns, before, after);
        } catch (error) {
          // A new chain can make a row fall back to a slug another row holds in that locale.
          if (!engine.isUniqueViolation(error)) throw error;
          throw slugClash(table, columns);
        }
      }
    },
  };
}

/** The 409 of a change of the locales that would give two rows of `table` the same slug in a locale. */
function slugClash(table: string, columns: readonly ColumnDescriptor[]): AppError {
  const slugs = localizedColumnsOf(columns)
    .filter((column) => column.type === 'slug')
    .map((column) => column.name);
  return new AppError(
    'conflict',
    `With these fallback chains two ${table} rows would read the same ${slugs.join(' or ') || 'slug'} in one locale; give one of them a slug of its own in that locale first. Nothing was changed`,
    undefined,
    { code: 'taken' },
  );
}

/** The content types with localized columns, as the registry holds them in `trx`. */
async function localizedTypes(trx: Kysely<QuireDatabase>) {
  const records = await new ContentTypeRepository(trx).listAll();
  return records.map(contentTypeFromRecord).filter((type) => localizedColumnsOf(type.columns).length > 0);
}

function schemaOf(db: Kysely<QuireDatabase>): Kysely<unknown> {
  return db as unknown as Kysely<unknown>;
}
