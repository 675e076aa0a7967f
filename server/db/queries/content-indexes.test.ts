// Engine: SQLite only: it reads the indexes from sqlite_master.

import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { STARTER_TYPES } from '../migrations/002-starter-types.js';
import { rebuildContentIndexes } from '../repositories/content-schema-repository.js';
import { contentIndexName } from './internal-names.js';

const NEWS = STARTER_TYPES[0].columns;
const STATUS = contentIndexName('news', ['status'], false);

let database: SqliteQuireDb;
beforeEach(async () => {
  database = await openDatabase(':memory:');
});
afterEach(() => database.close());

/** The SQL indexes of every table, as `sqlite_master` has them. */
function indexes(): { name: string; tbl_name: string; sql: string }[] {
  return database.raw
    .prepare(`select name, tbl_name, sql from sqlite_master where type = 'index' and sql is not null order by name`)
    .all() as { name: string; tbl_name: string; sql: string }[];
}

function rebuild(): Promise<void> {
  return rebuildContentIndexes(database.db as unknown as Kysely<unknown>, database.engine, 'news', NEWS);
}

describe('rebuilding the indexes of a content table', () => {
  it('keeps indexes that are as planned (the same objects, not rebuilt)', async () => {
    const before = database.raw.prepare(`select name, rootpage from sqlite_master where type = 'index'`).all();
    await rebuild();
    expect(database.raw.prepare(`select name, rootpage from sqlite_master where type = 'index'`).all()).toEqual(before);
  });

  it.each([
    ['unique where the plan is not', `create unique index "${STATUS}" on news (status)`],
    ['partial', `create index "${STATUS}" on news (status, id) where status = 'draft'`],
    ['descending', `create index "${STATUS}" on news (status desc, id)`],
  ])('replaces an index with a planned name that is %s', async (_what, impostor) => {
    const planned = indexes();
    database.raw.exec(`drop index "${STATUS}"; ${impostor}`);
    await rebuild();
    expect(indexes()).toEqual(planned);
  });

  it('drops indexes of the table that are not planned, and a planned name held by another table', async () => {
    const planned = indexes();
    database.raw.exec(`create index news_title_idx on news (title); drop index "${STATUS}";
      create index "${STATUS}" on categories (title)`);
    await rebuild();
    expect(indexes()).toEqual(planned);
  });
});
