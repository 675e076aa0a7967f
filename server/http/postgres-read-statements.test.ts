// Engine: PostgreSQL only: it counts PostgreSQL's statements per read on a database of its own.

import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import { buildsSettledForTests } from '../db/postgres/postgres-memory-search.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * On PostgreSQL every statement is a round trip: a get by id, and a page of a list whose
 * counts are kept, are one statement each. That statement also reads the registry's version (is a
 * content type as this server loaded it?), the table's change number (are the kept counts still
 * true?) and each row's schedule, which would otherwise take three more. Reads on types another server
 * changed meanwhile still answer on the types as changed.
 */

const postgres = await postgresForTests();

/** No poll: the scheduler's own statements would count among the reads'. */
const quiet = { scheduler: { pollMs: 0 } };

describe.skipIf(!postgres.available)(`reads on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;

  /** Statements sent while recording (every client of this process), as their SQL texts. */
  let sent: string[] | null = null;

  beforeAll(async () => {
    // Installed before the servers connect: their connections wrap `query` as they find it.
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      sent?.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      return (query as (...all: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    a = await startPostgresTestServer(database().target, quiet);
    b = await startPostgresTestServer(database().target, quiet);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    vi.restoreAllMocks();
  });

  /** The SQL texts of the statements `work` sends. */
  async function statementsOf(work: () => Promise<void>): Promise<string[]> {
    // The first reads of a table build its in-memory search index in the background: not counted.
    for (const server of [a, b]) await buildsSettledForTests(server.database.db as unknown as Kysely<unknown>);
    sent = [];
    try {
      await work();
      return sent;
    } finally {
      sent = null;
    }
  }

  const create = async (server: PostgresTestServer, title: string, status: string) => {
    const created = await call(server, 'POST', '/cms/news', { title, status, published_at: '2026-01-01 10:00:00' });
    expect(created.status).toBe(201);
    return created.body.id as string;
  };

  it('answer a get in one statement, with its total, its schedule and the other server’s writes', async () => {
    const ids = [await create(a, 'Harbour festival', 'published'), await create(a, 'River market', 'draft')];
    expect((await call(a, 'GET', `/cms/news/${ids[0]}`)).body.total).toBe(2);

    const gets = await statementsOf(async () => {
      for (const id of [...ids, ...ids]) {
        const got = await call(a, 'GET', `/cms/news/${id}`);
        expect(got.status).toBe(200);
        expect(got.body.total).toBe(2);
        expect(got.body.rows[0].schedule).toBeNull();
      }
    });
    expect(gets).toHaveLength(4);

    // A schedule and a row B writes: A's next get shows both, its count read again once.
    const scheduled = await call(b, 'POST', `/cms/news/${ids[1]}/schedule`, {
      status: 'published',
      at: '2030-05-01 08:00',
    });
    expect(scheduled.status).toBe(200);
    await create(b, 'School concert', 'draft');
    const after = await statementsOf(async () => {
      const got = await call(a, 'GET', `/cms/news/${ids[1]}`);
      expect(got.body.rows[0].schedule).toEqual({ status: 'published', at: '2030-05-01 08:00:00', by: 'tester' });
      expect(got.body.total).toBe(3);
      expect((await call(a, 'GET', `/cms/news/${ids[0]}`)).body.total).toBe(3);
    });
    expect(after).toHaveLength(3);
    expect(after.filter((text) => text.includes('count(*)'))).toHaveLength(1);
  });

  it('answer a page of a list in one statement once its counts are kept', async () => {
    const list = '/cms/news?filter=status%3Ddraft&order=title&limit=1';
    const first = await call(a, 'GET', list);
    expect(first.status).toBe(200);
    const pages = await statementsOf(async () => {
      const again = await call(a, 'GET', list);
      const next = await call(a, 'GET', `${list}&offset=1`);
      expect(again.body.rows[0].title).toBe('River market');
      expect(again.body.rows[0].schedule).toMatchObject({ status: 'published' });
      expect(next.body.rows[0].title).toBe('School concert');
      expect(next.body.rows[0].schedule).toBeNull();
      expect([again.body.filtered, next.body.filtered, next.body.total]).toEqual([2, 2, 3]);
    });
    expect(pages).toHaveLength(2);
  });

  it('run a write again whose prepared statement went stale inside its transaction', async () => {
    const id = await create(a, 'Library week', 'draft');
    // Sequential writes reuse the pool's last connection, which prepares the write's `select *`.
    for (const title of ['Library week 2', 'Library week 3']) {
      expect((await call(a, 'PATCH', `/cms/news/${id}`, { title })).status).toBe(200);
    }
    // Columns changed after A last checked the registry (as another server's change in between).
    const direct = new pg.Client(poolConfig(database().target));
    await direct.connect();
    try {
      await direct.query('alter table news add column aside text');
      const updated = await call(a, 'PATCH', `/cms/news/${id}`, { title: 'Library weekend' });
      expect(updated.status, JSON.stringify(updated.body)).toBe(200);
      expect((await call(a, 'GET', `/cms/news/${id}`)).body.rows[0].title).toBe('Library weekend');
      await direct.query('alter table news drop column aside');
      expect((await call(a, 'PATCH', `/cms/news/${id}`, { title: 'Library week' })).status).toBe(200);
    } finally {
      await direct.end();
    }
    expect(a.errors).toEqual([]);
  });

  it('answer on content types as the other server changed them, without asking first', async () => {
    const columns = [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
    ];
    expect((await call(b, 'POST', '/cms-content', { title: 'Authors', columns })).status).toBe(201);
    // A has not loaded the type: its first read of it asks, and finds it.
    const created = await call(b, 'POST', '/cms/authors', { name: 'Ursula Le Guin' });
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect((await call(a, 'GET', `/cms/authors/${id}`)).body.rows[0].name).toBe('Ursula Le Guin');

    // Renamed through B: A's next get and list read the renamed column.
    const renamed = columns.map((column) =>
      column.name === 'name'
        ? { ...column, name: 'full_name', from: 'name' }
        : { ...column, parent: column.parent && 'full_name' },
    );
    expect((await call(b, 'PUT', '/cms-content/authors', { columns: renamed })).status).toBe(200);
    const got = await call(a, 'GET', `/cms/authors/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.rows[0]).toMatchObject({ full_name: 'Ursula Le Guin' });
    expect(got.body.rows[0]).not.toHaveProperty('name');
    expect(got.body.columns.map((column: { name: string }) => column.name)).toContain('full_name');
    const listed = await call(a, 'GET', '/cms/authors?order=full_name');
    expect(listed.status).toBe(200);
    expect(listed.body.rows.map((row: { full_name: string }) => row.full_name)).toEqual(['Ursula Le Guin']);

    // Deleted through B: A's reads say the type is gone, not that the row is.
    expect((await call(b, 'DELETE', '/cms-content/authors?force=true')).status).toBe(200);
    const gone = await call(a, 'GET', `/cms/authors/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.message).toContain('no content type');
    expect((await call(a, 'GET', '/cms/authors')).status).toBe(404);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
  });
  it('answer a localized get and list page in one statement each, the page reading only the locale’s columns', async () => {
    const locales = {
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['en'] },
        { code: 'fr', label: 'Français', fallback: ['en'] },
      ],
    };
    expect((await call(a, 'PUT', '/locales', locales)).status).toBe(200);
    const columns = [{ name: 'title', label: 'Title', type: 'text', required: true, localized: true }];
    expect((await call(a, 'POST', '/cms-content', { title: 'Places', columns })).status).toBe(201);
    const id = (await call(a, 'POST', '/cms/places', { title: 'Harbour' })).body.id;
    expect((await call(a, 'PUT', `/cms/places/${id}?locale=fr`, { title: 'Port' })).status).toBe(200);
    const list = '/cms/places?locale=de&order=title&limit=5';
    expect((await call(a, 'GET', list)).status).toBe(200);
    const reads = await statementsOf(async () => {
      const got = await call(a, 'GET', `/cms/places/${id}?locale=de`);
      expect(got.body.rows[0]).toMatchObject({ title: 'Harbour', locale: 'de', fallbacks: { title: 'en' } });
      const listed = await call(a, 'GET', list);
      expect(listed.body.rows.map((row: { title: string }) => row.title)).toEqual(['Harbour']);
    });
    expect(reads).toHaveLength(2);
    // A get reads every column: its version (for If-Match) is the whole stored row's.
    const page = reads[1];
    expect(page).toContain('"quire_missing:de"');
    expect(page).not.toContain(':fr');
  });
});
