import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useTestDatabase } from '../../test-support/postgres.js';
import { poolConfig } from './postgres-connection.js';
import { StatementNames } from './postgres-statement-names.js';

/**
 * Statements named on PostgreSQL's connections: prepared once per connection, prepared
 * again after the content types change, and never failing a read because a table's columns changed.
 */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`named statements${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let names: StatementNames;
  let client: pg.Client;

  beforeEach(async () => {
    names = new StatementNames();
    client = new pg.Client(poolConfig(database().target));
    await client.connect();
    names.attach(client);
    await client.query('drop table if exists notes', []);
    await client.query('create table notes (id int primary key, body text)', []);
    await client.query('insert into notes values ($1, $2)', [1, 'first']);
  });
  afterEach(async () => {
    await client?.end();
  });

  /** The statements the connection has prepared: name to text. */
  async function prepared(): Promise<Map<string, string>> {
    const { rows } = await client.query('select name, statement from pg_prepared_statements', []);
    return new Map(rows.map((row: { name: string; statement: string }) => [row.name, row.statement]));
  }

  it('prepares reads and row writes once, and leaves transaction control and DDL unnamed', async () => {
    const read = 'select * from notes where id = $1';
    for (let i = 0; i < 3; i++) expect((await client.query(read, [1])).rows).toEqual([{ id: 1, body: 'first' }]);
    await client.query('begin', []);
    await client.query('update notes set body = $1 where id = $2', ['again', 1]);
    await client.query('commit', []);
    await client.query('create index notes_body on notes (body)', []);
    const statements = [...(await prepared()).values()];
    expect(statements.filter((text) => text === read)).toHaveLength(1);
    expect(statements).toContain('insert into notes values ($1, $2)');
    expect(statements).toContain('update notes set body = $1 where id = $2');
    expect(statements.some((text) => /^(begin|commit|create)/.test(text))).toBe(false);
  });

  it('runs a read again unnamed when its table’s columns changed, and prepares it anew next time', async () => {
    const read = 'select * from notes where id = $1';
    await client.query(read, [1]);
    await client.query('alter table notes add column title text', []);
    expect((await client.query(read, [1])).rows).toEqual([{ id: 1, body: 'first', title: null }]);
    expect((await client.query(read, [1])).rows).toEqual([{ id: 1, body: 'first', title: null }]);
    expect([...(await prepared()).values()].filter((text) => text === read)).toHaveLength(2);
  });

  it('fails a transaction whose named read went stale, but not once told to forget', async () => {
    const read = 'select * from notes where id = $1';
    await client.query(read, [1]);
    await client.query('alter table notes add column title text', []);
    await client.query('begin', []);
    await expect(client.query(read, [1])).rejects.toMatchObject({ code: '0A000' });
    await client.query('rollback', []);

    await client.query('alter table notes drop column title', []);
    names.forget();
    await client.query('begin', []);
    expect((await client.query(read, [1])).rows).toEqual([{ id: 1, body: 'first' }]);
    await client.query('commit', []);
  });

  it('stops naming on a connection whose server has its names for other statements (a pooler between)', async () => {
    // What a transaction-mode pooler shows: the session already holds the name this connection picks next.
    const next = (await prepared()).size;
    await client.query(`prepare quire_${next} as select 'another server session' as who`);
    expect((await client.query('select body from notes where id = $1', [1])).rows).toEqual([{ body: 'first' }]);
    expect((await client.query('select id from notes where body = $1', ['first'])).rows).toEqual([{ id: 1 }]);
    expect([...(await prepared()).values()]).not.toContain('select id from notes where body = $1');
  });

  it('names at most 100 texts on one connection, and runs the others as before', async () => {
    for (let i = 0; i < 120; i++) {
      expect((await client.query(`select $1::int + ${i} as n`, [1])).rows).toEqual([{ n: 1 + i }]);
    }
    expect((await prepared()).size).toBe(100);
  });
});
