import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';

describe('SQLite rows made from raw rows', () => {
  let dir: string;
  let database: SqliteQuireDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-row-shapes-'));
    database = await openDatabase(join(dir, 'content.sqlite'));
    database.raw.exec(`create table shapes (id text primary key, title text, hits integer, ratio real, data blob);
      insert into shapes values ('a', 'First', 1, 0.5, x'0102'), ('b', null, null, null, null), ('c', 'Third', 3, 1.5, null)`);
  });
  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** The rows as better-sqlite3 builds them itself, on a connection of its own. */
  const asBefore = (text: string, parameters: unknown[] = []) => {
    const other = new Database(join(dir, 'content.sqlite'), { readonly: true });
    try {
      return other.prepare(text).all(...parameters);
    } finally {
      other.close();
    }
  };

  it.each([
    ['select * from shapes order by id', []],
    ['select rowid as "quire:rowid", * from shapes where id in (?, ?) order by id', ['a', 'c']],
    ['select id, title as name, hits * 2 as doubled, count(*) over () as n from shapes order by id', []],
    // The same name twice: the last column's value, as better-sqlite3 gives it.
    ['select id, title as v, hits as v from shapes order by id', []],
    ['select * from shapes where id = ?', ['none']],
    ['select count(*) as n from shapes', []],
  ])('gives the rows better-sqlite3 gives: %s', async (text, parameters) => {
    const rows = await database.runner.all(text, parameters);
    expect(rows).toEqual(asBefore(text, parameters));
    for (const row of rows) expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it("reads a statement's columns again after this connection changes the schema", async () => {
    const text = 'select * from shapes where id = ?';
    expect(Object.keys((await database.runner.all(text, ['a']))[0])).toEqual(['id', 'title', 'hits', 'ratio', 'data']);
    // Through Kysely, as content-type changes run: SQLite prepares the kept statement again, with
    // the new name in the old one's place.
    await sql`alter table shapes rename column title to heading`.execute(database.db);
    const [row] = await database.runner.all(text, ['a']);
    expect(row).toEqual({ id: 'a', heading: 'First', hits: 1, ratio: 0.5, data: Buffer.from([1, 2]) });
    await sql`alter table shapes drop column ratio`.execute(database.db);
    expect(Object.keys((await database.runner.all(text, ['a']))[0])).toEqual(['id', 'heading', 'hits', 'data']);
  });

  it('reads them again when a row has another number of columns than those kept', async () => {
    const text = 'select * from shapes where id = ?';
    await database.runner.all(text, ['a']);
    // Not prepared through the statement cache, so not counted as a schema change.
    database.raw.exec("alter table shapes add column extra text default 'x'");
    expect((await database.runner.all(text, ['a']))[0]).toMatchObject({ id: 'a', title: 'First', extra: 'x' });
  });

  // better-sqlite3 itself assigns it, which drops the value (a string is no prototype).
  it('keeps a column named __proto__ a column, not the prototype', async () => {
    const text = `select id, title as "__proto__" from shapes where id = 'a'`;
    for (let round = 0; round < 2; round++) {
      const [row] = await database.runner.all(text, []);
      expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('First');
      expect(row.id).toBe('a');
    }
  });

  it('refuses a statement that returns no rows, as before', async () => {
    await expect(database.runner.all("update shapes set hits = 0 where id = 'a'", [])).rejects.toThrow(/run\(\)/);
  });
});
