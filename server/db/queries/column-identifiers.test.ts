// Engine: SQLite only: it makes tables through the raw SQLite handle.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { ContentRepository } from '../repositories/content-repository.js';
import { countRowsWithValues } from '../repositories/content-schema-repository.js';

/**
 * Column names reach SQL as one quoted identifier each, whatever they hold: a name with `.` (which
 * the registry refuses, but a database written by another tool may have) must never be read as
 * `table.column`. Readers with and without prepared statements take different paths; both are tried.
 */
const COLUMN = 'a.b';

let dir: string;
let database: SqliteQuireDb;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-identifiers-'));
  database = await openDatabase(join(dir, 'content.sqlite'));
  database.raw.exec(`create table dotted (id text primary key, "${COLUMN}" text, tags text)`);
  const insert = database.raw.prepare(`insert into dotted (id, "${COLUMN}", tags) values (?, ?, ?)`);
  insert.run('1', 'zebra', '["x"]');
  insert.run('2', 'apple', '["y"]');
  insert.run('3', 'mango', null);
});
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.each([
  [
    'with prepared statements',
    () => new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner }),
  ],
  ['through Kysely', () => new ContentRepository({ db: database.db, engine: database.engine })],
])('a column whose name holds a dot, read %s', (_how, repository) => {
  it('orders, filters and searches on it', async () => {
    const ordered = await repository().list(
      'dotted',
      { equals: [] },
      { order: COLUMN, desc: false, limit: 10, offset: 0 },
    );
    expect(ordered.map((row) => row[COLUMN])).toEqual(['apple', 'mango', 'zebra']);
    const selection = {
      equals: [{ column: COLUMN, value: 'zebra' }],
      search: { columns: [COLUMN], keywords: ['ZEB'] },
    };
    expect(
      (await repository().list('dotted', selection, { order: 'id', desc: false, limit: 10, offset: 0 })).length,
    ).toBe(1);
    expect(await repository().count('dotted', { equals: [{ column: COLUMN, value: null }] })).toBe(0);
    expect(await repository().count('dotted', { equals: [{ column: 'tags', value: 'x', match: 'contains' }] })).toBe(1);
  });

  it('looks values up in it', async () => {
    expect(await repository().isTaken('dotted', COLUMN, 'apple')).toBe(true);
    expect(await repository().isTaken('dotted', COLUMN, 'apple', '2')).toBe(false);
    expect((await repository().valuesStartingWith('dotted', COLUMN, 'ma')).values).toEqual(new Set(['mango']));
    expect((await repository().findReferencing('dotted', COLUMN, 'mango', 5)).map((row) => row.id)).toEqual(['3']);
    expect(
      await countRowsWithValues(database.db as unknown as Kysely<unknown>, 'dotted', COLUMN, ['apple', 'zebra']),
    ).toBe(2);
  });
});
