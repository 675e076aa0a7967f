// Engine: PostgreSQL only: two servers on one PostgreSQL database of its own change the same content type at once (a
// SQLite file has one writer).

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import {
  postgresForTests,
  runAdmin,
  skipNote,
  untilSessionsWaitOnLocks,
  useTestDatabase,
} from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * Two servers on one PostgreSQL database change the same content type at the same moment (issue
 * 12): one wins, the other answers 409 and changes nothing (no column, no registry row, no version
 * step of its own), and both then serve the winner's type. ContentTypeService.claimRegistry bumps
 * `quire_registry_version` first in each change's transaction, so the second waits on the first's
 * row lock and then sees a version it did not plan against.
 *
 * "The same moment" is made certain, not hoped for: the test holds the version row's lock while
 * both requests arrive, waits until both changes are queued on it, and lets go.
 */

const postgres = await postgresForTests();

const baseColumns = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
];

describe.skipIf(!postgres.available)(`two servers changing one content type at once${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('lets one win; the other is a 409 that changed nothing, and both serve the winner’s type', async () => {
    expect((await call(a, 'POST', '/cms-content', { title: 'Authors', columns: baseColumns })).status).toBe(201);
    expect((await call(b, 'POST', '/cms/authors', { name: 'Ursula Le Guin' })).status).toBe(201);
    const versionBefore = await registryVersion();

    const changes = {
      a: { title: 'Authors (A)', columns: [...baseColumns, { name: 'born', label: 'Born', type: 'text' }] },
      b: { title: 'Authors (B)', columns: [...baseColumns, { name: 'died', label: 'Died', type: 'number' }] },
    };
    const holder = new pg.Client(poolConfig(database().target));
    await holder.connect();
    let answers: { status: number; body: any }[];
    try {
      await holder.query('begin');
      await holder.query('select version from quire_registry_version where id = 1 for update');
      const pending = [
        call(a, 'PUT', '/cms-content/authors', changes.a),
        call(b, 'PUT', '/cms-content/authors', changes.b),
      ];
      // Both changes have planned against the same registry and now wait on its version row.
      await untilSessionsWaitOnLocks(holder, 2);
      await holder.query('rollback');
      answers = await Promise.all(pending);
    } finally {
      await holder.end();
    }

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const winner = answers[0].status === 200 ? 'a' : 'b';
    const loser = winner === 'a' ? 'b' : 'a';
    const lost = answers[winner === 'a' ? 1 : 0];
    expect(lost.body.error).toMatchObject({ status: 409, code: 'conflict' });
    expect(lost.body.error.message).toContain('Another server changed the content types');
    const winnerColumn = winner === 'a' ? 'born' : 'died';
    const loserColumn = winner === 'a' ? 'died' : 'born';

    // Nothing of the loser's change was applied: the table, the registry row and its version.
    expect(await tableColumns('authors')).toContain(winnerColumn);
    expect(await tableColumns('authors')).not.toContain(loserColumn);
    const registered = await runAdmin(
      database().target,
      "select title, columns from quire_content_types where slug = 'authors'",
    );
    expect(registered.rows[0].title).toBe(changes[winner].title);
    expect(JSON.parse(registered.rows[0].columns).map((column: { name: string }) => column.name)).toEqual(
      changes[winner].columns.map((column) => column.name),
    );
    expect(await registryVersion()).toBe(versionBefore + 1);

    // Both servers serve the winner's type, and the loser's server writes rows with it.
    for (const server of [a, b]) {
      const type = await call(server, 'GET', '/cms-content/authors');
      expect(type.status).toBe(200);
      expect(type.body.title).toBe(changes[winner].title);
      expect(type.body.columns.map((column: { name: string }) => column.name)).toEqual(['name', 'slug', winnerColumn]);
    }
    const servers = { a, b };
    const written = await call(servers[loser], 'POST', '/cms/authors', {
      name: 'Octavia Butler',
      [winnerColumn]: winnerColumn === 'born' ? '1947' : 2006,
    });
    expect(written.status, JSON.stringify(written.body)).toBe(201);
    expect((await call(servers[winner], 'GET', `/cms/authors/${written.body.id}`)).body.rows[0][winnerColumn]).toBe(
      winnerColumn === 'born' ? '1947' : 2006,
    );

    // The loser's change, sent again, now plans against the winner's type and goes through.
    const again = await call(servers[loser], 'PUT', '/cms-content/authors', {
      columns: [...changes[winner].columns, ...changes[loser].columns.slice(2)],
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(await tableColumns('authors')).toEqual(expect.arrayContaining(['born', 'died']));
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });

  async function registryVersion(): Promise<number> {
    const result = await runAdmin(database().target, 'select version from quire_registry_version where id = 1');
    return Number(result.rows[0].version);
  }

  async function tableColumns(table: string): Promise<string[]> {
    const result = await runAdmin(
      database().target,
      `select column_name from information_schema.columns
        where table_schema = current_schema() and table_name = '${table}' order by ordinal_position`,
    );
    return result.rows.map((row) => row.column_name);
  }
});
