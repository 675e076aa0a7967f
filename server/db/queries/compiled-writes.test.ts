import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { ContentRepository } from '../repositories/content-repository.js';
import { CompiledWrites, compiledWritesOf } from './compiled-writes.js';

describe('row writes compiled once per shape', () => {
  let dir: string;
  let database: SqliteQuireDb;
  let db: Kysely<any>;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-compiled-writes-'));
    database = await openDatabase(join(dir, 'content.sqlite'));
    db = database.db as unknown as Kysely<any>;
    database.raw.exec('create table things (id text primary key, a text, b integer)');
  });
  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('builds a shape once and binds each write its own values', async () => {
    const writes = new CompiledWrites();
    let builds = 0;
    const insert = (values: unknown[]) =>
      writes.statement('insert things a b', values, () => {
        builds++;
        return db.insertInto('things').values({ id: values[0], a: values[1], b: values[2] });
      });
    const first = insert(['1', 'one', 1]);
    const second = insert(['2', 'two', 2]);
    expect(builds).toBe(1);
    expect(second.sql).toBe(first.sql);
    expect(second.parameters).toEqual(['2', 'two', 2]);
    await db.executeQuery(first);
    await db.executeQuery(second);
    expect(database.raw.prepare('select id, a, b from things order by id').all()).toEqual([
      { id: '1', a: 'one', b: 1 },
      { id: '2', a: 'two', b: 2 },
    ]);
  });

  it('keeps no shape whose compiled parameters are not the values given, in order', () => {
    const writes = new CompiledWrites();
    let builds = 0;
    const literal = (values: unknown[]) =>
      writes.statement('insert with a literal', values, () => {
        builds++;
        return db.insertInto('things').values({ id: values[0], a: sql.lit('fixed'), b: values[1] });
      });
    expect(literal(['1', 1]).parameters).toEqual(['1', 1]);
    literal(['1', 1]);
    expect(builds).toBe(1); // parameters equal the values: kept
    const reordered = (values: unknown[]) =>
      writes.statement('insert reordered', values, () => {
        builds++;
        return db.insertInto('things').values({ b: values[1], id: values[0] });
      });
    reordered(['3', 3]);
    expect(reordered(['4', 4]).parameters).toEqual([4, '4']);
    expect(builds).toBe(3); // compiled each time: its parameters came in another order
  });

  it('serves inserts and updates of every column set through the repository', async () => {
    const repository = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
    const shapes = compiledWritesOf(db as Kysely<unknown>);
    const before = shapes.size;
    await repository.insert('things', { id: 'x', a: 'first', b: 1 });
    await repository.insert('things', { id: 'y', a: undefined, b: 2 });
    await repository.insert('things', { id: 'z', a: 'third', b: 3 });
    expect(await repository.update('things', 'x', { b: 10 })).toBe(true);
    expect(await repository.update('things', 'z', { a: 'changed', b: undefined })).toBe(true);
    expect(await repository.update('things', 'y', { b: 20 })).toBe(true);
    expect(await repository.update('things', 'missing', { b: 30 })).toBe(false);
    expect(database.raw.prepare('select id, a, b from things order by id').all()).toEqual([
      { id: 'x', a: 'first', b: 10 },
      { id: 'y', a: null, b: 20 },
      { id: 'z', a: 'changed', b: 3 },
    ]);
    // Two insert shapes (with and without a), three update shapes (b; a; b again: kept).
    expect(shapes.size - before).toBe(4);
    database.raw.exec("insert into things (id, a) values ('s1', 'slug'), ('s2', 'slug-2'), ('s3', 'slugs')");
    expect((await repository.valuesStartingWith('things', 'a', 'slug')).values).toEqual(
      new Set(['slug', 'slug-2', 'slugs']),
    );
    expect((await repository.valuesStartingWith('things', 'a', 'slug-', 's1')).values).toEqual(new Set(['slug-2']));
    expect((await repository.valuesStartingWith('things', 'a', 'slug', 's2')).values).toEqual(
      new Set(['slug', 'slugs']),
    );
    expect(shapes.size - before).toBe(6);
    // One dialect, one cache: a transaction's Kysely shares its database's.
    await db.transaction().execute(async (trx) => {
      expect(compiledWritesOf(trx as unknown as Kysely<unknown>)).toBe(shapes);
    });
  });
});
