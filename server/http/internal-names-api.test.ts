import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { reopenOptions, startTestServer, testEngine } from '../test-support/test-server.js';

/**
 * Content tables whose names were once the names of another type's internal objects: the search
 * index's FTS5 shadow tables, its pending table and triggers, and the SQL indexes of `news`. Each
 * is a fine name for a content type, and none may break `news`.
 */
const NEWS_LOOKALIKES = [
  'news_data',
  'news_idx',
  'news_content',
  'news_docsize',
  'news_config',
  'news_pending',
  'news_insert',
  'news_update',
  'news_delete',
  'news_status_idx',
  'news_slug_unique',
  'news_created_at_idx',
  'news_updated_at_idx',
  'news_published_at_idx',
  'news_status_published_at_idx',
];

const TITLED = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
];

let server: Awaited<ReturnType<typeof startTestServer>>;
let kept: string;

async function createType(table: string, columns: unknown[] = TITLED): Promise<void> {
  const created = await request(server, 'POST', '/cms-content', { json: { title: table, table, columns } });
  expect(created.response.status, created.text).toBe(201);
}

/** Titles of the rows found by a search, asked before and after the search index takes in new rows. */
async function searchTitles(table: string, keyword: string): Promise<string[]> {
  const before = await searchOnce(table, keyword);
  await server.services.rows.searchFlushes.flush();
  expect(await searchOnce(table, keyword), `${keyword} in ${table} after a flush`).toEqual(before);
  return before;
}

async function searchOnce(table: string, keyword: string): Promise<string[]> {
  const found = await request(server, 'GET', `/cms/${table}?filter=${encodeURIComponent(`search=${keyword}`)}`);
  expect(found.response.status, found.text).toBe(200);
  return found.body.rows.map((row: { title: string }) => row.title).sort();
}

/** Creates a news row, renames it, and finds both it and the row made before the other types. */
async function expectNewsWorks(round: string): Promise<void> {
  const created = await request(server, 'POST', '/cms/news', {
    body: { title: `Draft ${round}`, status: 'published', published_at: '2025-01-01 10:00:00' },
  });
  expect(created.response.status, created.text).toBe(201);
  const renamed = await request(server, 'PUT', `/cms/news/${created.body.id}`, { body: { title: `Edited ${round}` } });
  expect(renamed.response.status, renamed.text).toBe(200);
  expect(await searchTitles('news', `edited ${round}`)).toEqual([`Edited ${round}`]);
  expect(await searchTitles('news', 'kept from before')).toEqual(['Kept from before']);
  expect(await searchTitles('news', `draft ${round}`)).toEqual([]);
}

beforeAll(async () => {
  server = await startTestServer();
  const created = await request(server, 'POST', '/cms/news', {
    body: { title: 'Kept from before', status: 'draft', published_at: '2025-01-01 10:00:00' },
  });
  expect(created.response.status, created.text).toBe(201);
  kept = created.body.id;
});
afterAll(() => server.dispose());

describe('content types named like the internal objects of another type', () => {
  it('are accepted, and news keeps taking creates, title edits and searches', async () => {
    for (const table of NEWS_LOOKALIKES) await createType(table);
    await expectNewsWorks('one');
    for (const table of NEWS_LOOKALIKES) {
      const row = await request(server, 'POST', `/cms/${table}`, { body: { title: `Row of ${table}` } });
      expect(row.response.status, row.text).toBe(201);
    }
    // Writes to news after the others' rows are indexed must not touch their indexes.
    await server.services.rows.searchFlushes.flush();
    await expectNewsWorks('between');
    for (const table of NEWS_LOOKALIKES) {
      expect(await searchTitles(table, `row of ${table}`)).toEqual([`Row of ${table}`]);
    }
  });

  it('are accepted when they exist first, before the type whose internal names they look like', async () => {
    await createType('zeta_status_idx');
    await createType('zeta_data');
    await createType('zeta', [
      ...TITLED,
      { name: 'status', label: 'Status', type: 'select', required: false, options: [{ id: 'a', text: 'A' }] },
    ]);
    const row = await request(server, 'POST', '/cms/zeta', { body: { title: 'Zeta row', status: 'a' } });
    expect(row.response.status, row.text).toBe(201);
    expect(await searchTitles('zeta', 'zeta row')).toEqual(['Zeta row']);
    expect(await searchTitles('zeta_data', 'zeta')).toEqual([]);
  });

  it('leave news working after a restart', async () => {
    await server.stop();
    server = await startTestServer(reopenOptions(server));
    await expectNewsWorks('two');
    const row = await request(server, 'GET', `/cms/news/${kept}`);
    expect(row.body.rows[0].title).toBe('Kept from before');
    expect(await searchTitles('news_data', 'row of news_data')).toEqual(['Row of news_data']);
    expect(server.errors).toEqual([]);
  });
});

/**
 * Schema objects that share the namespace of tables. A trigger does on SQLite only: PostgreSQL names
 * a trigger within its table, so there a type may take a trigger's name and nothing is refused.
 */
type SchemaObject = [what: string, name: string, ddl: string];
const SQLITE_TRIGGER: SchemaObject = [
  'a trigger',
  'legacy_trigger',
  'create trigger legacy_trigger after delete on news begin select 1; end',
];
const NON_CONTENT_OBJECTS: SchemaObject[] = [
  ['an index', 'legacy_idx', 'create index legacy_idx on news (title)'],
  ['a view', 'legacy_view', 'create view legacy_view as select id from news'],
  ...(testEngine() === 'sqlite' ? [SQLITE_TRIGGER] : []),
  ['a table outside the registry', 'legacy_table', 'create table legacy_table (id text)'],
];

describe('a new content type named like a schema object that is not a content table', () => {
  it.each(NON_CONTENT_OBJECTS)(
    'is refused with a 409 naming the table when %s has the name',
    async (_what, table, ddl) => {
      const { db, engine } = server.database;
      await sql.raw(ddl).execute(db);
      const before = await request(server, 'GET', '/cms-content');
      const refused = await request(server, 'POST', '/cms-content', { json: { title: table, table, columns: TITLED } });
      expect(refused.response.status, refused.text).toBe(409);
      expect(refused.body.error.message).toContain(table);
      expect(refused.body.error.problems).toEqual({ table: { code: 'taken' } });
      expect((await request(server, 'GET', '/cms-content')).body).toEqual(before.body);
      // The object is still there, untouched by the refused create.
      expect(await engine.schema.objectType(db as unknown as Kysely<unknown>, table)).not.toBeNull();
    },
  );
});
