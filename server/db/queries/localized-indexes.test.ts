import { expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { describeOnBothEngines, type EngineSuiteDatabase } from '../../test-support/engine-suites.js';
import { localesWith, TITLE_SLUG_RANK } from '../../test-support/localized-fixtures.js';
import {
  alterContentTable,
  createContentTable,
  restoreLocaleStorage,
} from '../repositories/content-schema-repository.js';
import { indexesFor } from './content-index-plan.js';

/**
 * The indexes of a table with localized columns, as made: each locale's stored column has its
 * column's list indexes (and a localized slug its unique index per locale) after the table is made,
 * changed, and stored again for other locales. On both engines.
 */

const EN_DE = localesWith({ de: ['en'] });
const WITH_FR = localesWith({ de: ['en'], fr: ['de', 'en'] });
const COLUMNS = TITLE_SLUG_RANK;

await describeOnBothEngines('localized indexes', localizedIndexSuite);

/** The tests of both engines, over the database each engine's suite opens. */
function localizedIndexSuite(db: EngineSuiteDatabase): void {
  /** The names of the table's indexes, sorted. */
  const namesOf = async (table: string) =>
    (await db.quire.engine.schema.indexes(db.schema, table)).map((index) => index.name).sort();
  const planned = (table: string, columns: readonly ColumnDescriptor[], locales: LocalesDocument) =>
    indexesFor(db.quire.engine, table, columns, locales)
      .map((plan) => plan.name)
      .sort();

  it("gives a new table its locale columns' indexes, a unique slug index per locale among them", async () => {
    await createContentTable(db.schema, db.quire.engine, 'loc_new', COLUMNS, EN_DE);
    const names = await namesOf('loc_new');
    expect(names).toEqual(planned('loc_new', COLUMNS, EN_DE));
    expect(names).toContain('quire_unique:loc_new:quire_loc:de:slug');
  });

  it('keeps them planned through a type change and a locale added', async () => {
    await createContentTable(db.schema, db.quire.engine, 'loc_change', COLUMNS, EN_DE);
    const renamed = COLUMNS.map((column) => (column.name === 'title' ? { ...column, name: 'heading' } : column)).map(
      (column) => (column.parent === 'title' ? { ...column, parent: 'heading' } : column),
    );
    await alterContentTable(db.schema, db.quire.engine, 'loc_change', {
      renames: [{ from: 'title', to: 'heading' }],
      drops: [],
      adds: [],
      columns: renamed,
      before: COLUMNS,
      locales: EN_DE,
    });
    expect(await namesOf('loc_change')).toEqual(planned('loc_change', renamed, EN_DE));
    await restoreLocaleStorage(db.schema, db.quire.engine, 'loc_change', renamed, EN_DE, WITH_FR);
    const names = await namesOf('loc_change');
    expect(names).toEqual(planned('loc_change', renamed, WITH_FR));
    expect(names).toContain('quire_unique:loc_change:quire_loc:fr:slug');
  });
}
