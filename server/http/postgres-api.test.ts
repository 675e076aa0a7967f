// Engine: PostgreSQL only: the API over real HTTP on a PostgreSQL database of its own.

import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { openPostgresDatabase } from '../db/database.js';
import { MIGRATION_NAMES } from '../db/migrations/index.js';
import { searchTextName } from '../db/queries/internal-names.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { pngImage } from '../test-support/sample-images.js';

/** The API over PostgreSQL, through real HTTP against a real server. */

const postgres = await postgresForTests();

const EVENT_COLUMNS: ColumnDescriptor[] = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
  { name: 'day', label: 'Day', type: 'date', required: false },
  { name: 'free', label: 'Free entry', type: 'boolean', required: false },
  { name: 'price', label: 'Price', type: 'number', required: false },
  {
    name: 'kind',
    label: 'Kind',
    type: 'select',
    required: false,
    options: [
      { id: 'talk', text: 'Talk' },
      { id: 'concert', text: 'Concert' },
    ],
  },
];

describe.skipIf(!postgres.available)(`Quire on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let server: PostgresTestServer;
  beforeAll(async () => {
    server = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** One query on the test database, outside Quire. */
  async function query<T>(statement: ReturnType<typeof sql<T>>): Promise<T[]> {
    return (await statement.execute(server.database.db)).rows;
  }

  it('migrates an empty database to the starter types, with pg_trgm and the search tables', async () => {
    const { status, body } = await call(server, 'GET', '/cms-content');
    expect(status).toBe(200);
    expect(body.content_types.map((type: { table: string }) => type.table)).toEqual([
      'news',
      'categories',
      'articles',
      'menu_items',
    ]);
    const applied = await query(sql<{ name: string }>`select name from kysely_migration order by name`);
    expect(applied.map((row) => row.name)).toEqual(MIGRATION_NAMES);
    expect(await query(sql`select 1 from pg_extension where extname = 'pg_trgm'`)).toHaveLength(1);
    const types = await query(sql<{ column_name: string; data_type: string; collation_name: string | null }>`
      select column_name, data_type, collation_name from information_schema.columns
      where table_name = 'menu_items' and column_name in ('position', 'title')`);
    expect(types).toEqual(
      expect.arrayContaining([
        { column_name: 'position', data_type: 'double precision', collation_name: null },
        { column_name: 'title', data_type: 'text', collation_name: 'C' },
      ]),
    );
    expect(await query(sql`select 1 from pg_class where relname = ${searchTextName('news')}`)).toHaveLength(1);
  });

  it('reads its catalog as the content tables need it: object kinds and indexes as Kysely writes them', async () => {
    const { engine } = server.database;
    const db = server.database.db as unknown as Kysely<unknown>;
    expect(await engine.schema.hasTable(db, 'news')).toBe(true);
    expect(await engine.schema.hasTable(db, 'nothing_here')).toBe(false);
    expect(await engine.schema.objectType(db, 'news')).toBe('table');
    expect(await engine.schema.objectType(db, 'quire_unique:news:slug')).toBe('index');
    expect(await engine.schema.objectType(db, 'nothing_here')).toBeNull();
    await sql`create view some_view as select 1 as one`.execute(db);
    await sql`create sequence some_sequence`.execute(db);
    expect(await engine.schema.objectType(db, 'some_view')).toBe('view');
    expect(await engine.schema.objectType(db, 'some_sequence')).toBe('sequence');
    const indexes = await engine.schema.indexes(db, 'news');
    // The primary key's own index is not one Quire made, and is left out.
    // The list indexes (one per orderable column, per filter and order, a count index per filter:
    // server/db/list-indexes.test.ts checks the plan) as the catalog reads them back.
    expect(indexes.map((index) => index.name).sort()).toEqual([
      'quire_count:news:status',
      'quire_idx:news:created_at',
      'quire_idx:news:published_at',
      'quire_idx:news:slug',
      'quire_idx:news:status',
      'quire_idx:news:status:created_at',
      'quire_idx:news:status:published_at',
      'quire_idx:news:status:slug',
      'quire_idx:news:status:title',
      'quire_idx:news:status:updated_at',
      'quire_idx:news:title',
      'quire_idx:news:updated_at',
      'quire_unique:news:slug',
    ]);
    expect(indexes.find((index) => index.name === 'quire_unique:news:slug')?.sql).toBe(
      'create unique index "quire_unique:news:slug" on "news" ("slug")',
    );
    expect(indexes.find((index) => index.name === 'quire_idx:news:status:published_at')?.sql).toBe(
      'create index "quire_idx:news:status:published_at" on "news" ("status" nulls first, "published_at" nulls first, "id")',
    );
    // Text by its first 200 characters, stored beside it: PostgreSQL's b-tree holds entries of about
    // 2.7 kB at most, and walks an index alone only over columns.
    expect(indexes.find((index) => index.name === 'quire_idx:news:status:title')?.sql).toBe(
      'create index "quire_idx:news:status:title" on "news" ("status" nulls first, "quire_key:title" nulls first, "id")',
    );
  });

  it('creates, reads, updates and deletes rows, numbers staying numbers', async () => {
    const created = await call(server, 'POST', '/cms/menu_items', {
      title: 'Home',
      url: '/',
      position: 1.25,
      status: 'published',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id;
    const read = await call(server, 'GET', `/cms/menu_items/${id}`);
    expect(read.status).toBe(200);
    expect(read.body.rows[0]).toMatchObject({ id, title: 'Home', slug: 'home', url: '/', position: 1.25 });
    expect(read.body.rows[0].created_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);

    const updated = await call(server, 'PUT', `/cms/menu_items/${id}`, { title: 'Start', position: 0.1 });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    const list = await call(server, 'GET', '/cms/menu_items?filter=search=start');
    expect(list.body.rows.map((row: { id: string }) => row.id)).toEqual([id]);
    expect(list.body.rows[0]).toMatchObject({ title: 'Start', position: 0.1 });
    expect(list.body.total).toBe(1);
    expect(list.body.filtered).toBe(1);

    expect((await call(server, 'DELETE', `/cms/menu_items/${id}`)).status).toBe(200);
    expect((await call(server, 'GET', `/cms/menu_items/${id}`)).status).toBe(404);
    // The search table's row went with it (the foreign key cascades).
    expect(await query(sql`select 1 from ${sql.id(searchTextName('menu_items'))} where id = ${id}`)).toEqual([]);
  });

  it('creates a content type, alters it (rename, drop, add) keeping data, and deletes it', async () => {
    const created = await call(server, 'POST', '/cms-content', { title: 'Events', columns: EVENT_COLUMNS });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const row = await call(server, 'POST', '/cms/events', {
      name: 'Jazz night',
      day: '2026-05-01',
      free: true,
      price: 12.5,
      kind: 'concert',
    });
    expect(row.status, JSON.stringify(row.body)).toBe(201);
    expect(row.body.rows[0]).toMatchObject({ name: 'Jazz night', slug: 'jazz-night', free: true, price: 12.5 });

    const columns: (ColumnDescriptor & { from?: string })[] = [
      ...EVENT_COLUMNS.filter((column) => column.name !== 'kind').map((column) =>
        column.name === 'day' ? { ...column, name: 'date', label: 'Date', from: 'day' } : column,
      ),
      { name: 'venue', label: 'Venue', type: 'text', required: false },
    ];
    const altered = await call(server, 'PUT', '/cms-content/events', { columns });
    expect(altered.status, JSON.stringify(altered.body)).toBe(200);
    const after = await call(server, 'GET', '/cms/events?filter=free=true');
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    expect(after.body.rows).toHaveLength(1);
    expect(after.body.rows[0]).toMatchObject({ name: 'Jazz night', date: '2026-05-01', venue: null, price: 12.5 });
    expect(after.body.rows[0]).not.toHaveProperty('kind');
    expect((await call(server, 'GET', '/cms/events?filter=search=JAZZ')).body.filtered).toBe(1);

    // Renaming the title column rebuilds the search table over the new name.
    const renamedTitle = columns.map(({ from: _from, ...column }) =>
      column.name === 'name'
        ? { ...column, name: 'heading', label: 'Heading', from: 'name' }
        : column.name === 'slug'
          ? { ...column, parent: 'heading' }
          : column,
    );
    const retitled = await call(server, 'PUT', '/cms-content/events', { columns: renamedTitle });
    expect(retitled.status, JSON.stringify(retitled.body)).toBe(200);
    expect((await call(server, 'GET', '/cms/events?filter=search=night')).body.rows[0]).toMatchObject({
      heading: 'Jazz night',
    });

    expect((await call(server, 'DELETE', '/cms-content/events')).status).toBe(409);
    expect((await call(server, 'DELETE', '/cms-content/events?force=true')).status).toBe(200);
    expect((await call(server, 'GET', '/cms/events')).status).toBe(404);
    expect(await query(sql`select relname from pg_class where relname like ${'%events%'}`)).toEqual([]);
  });

  it('filters tags by membership', async () => {
    const tagged = await call(server, 'POST', '/cms/articles', {
      title: 'Tagged',
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
      tags: ['red', 'blue'],
    });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(201);
    await call(server, 'POST', '/cms/articles', {
      title: 'Other',
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
      tags: ['green'],
    });
    const red = await call(server, 'GET', '/cms/articles?filter=tags=red');
    expect(red.status, JSON.stringify(red.body)).toBe(200);
    expect(red.body.rows.map((row: { title: string }) => row.title)).toEqual(['Tagged']);
    expect(red.body.rows[0].tags).toEqual(['red', 'blue']);
    expect((await call(server, 'GET', '/cms/articles?filter=tags=re')).body.filtered).toBe(0);
    // PostgreSQL's text cannot hold NUL, so no row can: such a filter finds nothing, as on SQLite.
    const nul = await call(server, 'GET', `/cms/articles?filter=${encodeURIComponent('tags=re\u0000d')}`);
    expect(nul.status).toBe(200);
    expect(nul.body.filtered).toBe(0);
    expect((await call(server, 'GET', `/cms/articles?filter=${encodeURIComponent('slug=\u0000')}`)).status).toBe(200);
  });

  it('refuses to delete a row another row points at, with a 409', async () => {
    const category = await call(server, 'POST', '/cms/categories', { title: 'Music' });
    const article = await call(server, 'POST', '/cms/articles', {
      title: 'Concert review',
      status: 'published',
      published_at: '2026-02-01 10:00:00',
      category: category.body.id,
    });
    expect(article.status, JSON.stringify(article.body)).toBe(201);
    const refused = await call(server, 'DELETE', `/cms/categories/${category.body.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect((await call(server, 'GET', `/cms/categories/${category.body.id}`)).status).toBe(200);
  });

  it('answers a taken slug with 409, and a unique violation from PostgreSQL with 409 too', async () => {
    await call(server, 'POST', '/cms/categories', { title: 'Books', slug: 'books' });
    const taken = await call(server, 'POST', '/cms/categories', { title: 'More books', slug: 'books' });
    expect(taken.status).toBe(409);
    // Two creates racing for one slug: the database's unique index decides, and the loser is a 409.
    const racing = await Promise.all(
      Array.from({ length: 6 }, () => call(server, 'POST', '/cms/categories', { title: 'Race', slug: 'race' })),
    );
    const statuses = racing.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    let violation: unknown;
    await sql`insert into categories (id, title, slug, created_at, updated_at)
      values ('dup', 'Dup', 'books', '2026-01-01 00:00:00', '2026-01-01 00:00:00')`
      .execute(server.database.db)
      .catch((error: unknown) => {
        violation = error;
      });
    expect(server.database.engine.isUniqueViolation(violation)).toBe(true);
    expect(server.database.engine.isUniqueViolation(new Error('other'))).toBe(false);
  });

  it('keeps uploads in quire_media: path, type, size, bytes and when', async () => {
    const form = new FormData();
    form.append('file', new Blob([pngImage()]), 'dot.png');
    const response = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    const { path } = (await response.json()) as { path: string };
    const rows = await query<{ path: string; type: string; size: number; bytes: Buffer; created_at: Date }>(
      sql`select path, type, size, bytes, created_at from quire_media`,
    );
    expect(rows).toEqual([
      {
        path: path.slice('/media/'.length),
        type: 'image/png',
        size: pngImage().length,
        bytes: pngImage(),
        created_at: expect.any(Date),
      },
    ]);
    expect(server.errors).toEqual([]);
  });
});

describe.skipIf(!postgres.available)(`two servers starting on one empty database${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);

  it('migrate it once (Kysely holds an advisory lock) and both serve it', async () => {
    const [first, second] = await Promise.all([
      openPostgresDatabase(database().target),
      openPostgresDatabase(database().target),
    ]);
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(first.db);
      expect(applied.rows.map((row) => row.name)).toEqual(MIGRATION_NAMES);
      const types = await second.db.selectFrom('quire_content_types').select('slug').execute();
      expect(types.map((type) => type.slug).sort()).toEqual(['articles', 'categories', 'menu_items', 'news']);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
