import { type Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AFTER_MIGRATION_STEPS, SEARCH_TEXTS_FILLED } from '../db/after-migration-steps.js';
import { searchTextColumnName } from '../db/queries/internal-names.js';
import { SEARCH_TEXT_MIGRATION } from '../db/queries/search-text-columns.js';
import { request } from '../test-support/api-scenario.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A database whose rich text and blocks columns predate their search text columns (as the version
 * before migration 035 left it), on both engines: the next start adds the columns, fills them from
 * the rows and searches them; one whose start stopped while it filled them, which the next start
 * finishes; and one whose fill finished, whose starts look at no table again.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.dispose());

const COLUMNS = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'body', label: 'Body', type: 'richtext', required: false },
  {
    name: 'sections',
    label: 'Sections',
    type: 'blocks',
    required: false,
    blocks: [{ name: 'hero', label: 'Hero', columns: [{ name: 'heading', label: 'Heading', type: 'text' }] }],
  },
];

async function titlesFound(words: string): Promise<string[]> {
  const { response, body } = await request(server, 'GET', `/cms/pages?filter=search=${encodeURIComponent(words)}`);
  expect(response.status, JSON.stringify(body)).toBe(200);
  return body.rows.map((row: { title: string }) => row.title);
}

/** As a database whose fill never finished has it: without the mark that it did. */
async function forgetFinishedFill(db: Kysely<unknown>): Promise<void> {
  await sql`delete from quire_settings where name = ${SEARCH_TEXTS_FILLED}`.execute(db);
}

describe('search text columns of an older database', () => {
  it('are added and filled at the start that migrates it', async () => {
    expect(
      (await request(server, 'POST', '/cms-content', { json: { title: 'Pages', table: 'pages', columns: COLUMNS } }))
        .response.status,
    ).toBe(201);
    const row = {
      title: 'Kept',
      body: '<p>Old <b>marmalade</b></p>',
      sections: [{ type: 'hero', heading: 'Kestrel' }],
    };
    expect((await request(server, 'POST', '/cms/pages', { json: row })).response.status).toBe(201);

    // The table as the version before: no text columns, its search index over the title alone.
    const { engine } = server.database;
    const db = server.database.db as unknown as Kysely<unknown>;
    await engine.searchIndex.drop(db, 'pages');
    for (const column of ['body', 'sections']) {
      await sql`alter table pages drop column ${sql.id(searchTextColumnName(column))}`.execute(db);
    }
    await engine.searchIndex.ensure(db, 'pages', ['title']);
    // The migrations after 035 undone as well: a database the version before left has none of them.
    await sql`alter table quire_hook_outbox drop column locales`.execute(db);
    await sql`delete from kysely_migration where name >= ${SEARCH_TEXT_MIGRATION}`.execute(db);
    await forgetFinishedFill(db);
    await server.stop();

    server = await startTestServer(reopenOptions(server));
    expect(await titlesFound('marmalade')).toEqual(['Kept']);
    expect(await titlesFound('kestrel')).toEqual(['Kept']);
    expect(await titlesFound('kept')).toEqual(['Kept']);
    expect(await titlesFound('hero')).toEqual([]);
  });

  it('are filled at the next start where a start stopped midway left rows without their text', async () => {
    expect(
      (await request(server, 'POST', '/cms-content', { json: { title: 'Pages', table: 'pages', columns: COLUMNS } }))
        .response.status,
    ).toBe(201);
    const rows = [
      { title: 'Jam', body: '<p>Quince <i>membrillo</i></p>', sections: [] },
      { title: 'Birds', body: null, sections: [{ type: 'hero', heading: 'Osprey' }] },
      { title: 'Done', body: '<p>Damson</p>', sections: [{ type: 'hero', heading: 'Heron' }] },
      // A set body without text: its text is empty, never left to fill at every start.
      { title: 'Blank', body: null, sections: [{ type: 'hero' }] },
    ];
    for (const row of rows)
      expect((await request(server, 'POST', '/cms/pages', { json: row })).response.status).toBe(201);

    // Stopped midway: two rows' text columns still empty, as the fill after migration 035 leaves them.
    const db = server.database.db as unknown as Kysely<unknown>;
    const texts = ['body', 'sections'].map((column) => sql.id(searchTextColumnName(column)));
    await sql`update pages set ${texts[0]} = null, ${texts[1]} = null where title in ('Jam', 'Birds')`.execute(db);
    await forgetFinishedFill(db);
    await server.stop();

    server = await startTestServer(reopenOptions(server));
    expect(await titlesFound('membrillo')).toEqual(['Jam']);
    expect(await titlesFound('osprey')).toEqual(['Birds']);
    expect(await titlesFound('heron')).toEqual(['Done']);
    const reopened = server.database.db as unknown as Kysely<unknown>;
    const left = await sql<{ title: string }>`select title from pages
      where (${texts[0]} is null and body is not null) or (${texts[1]} is null and sections is not null)`.execute(
      reopened,
    );
    expect(left.rows).toEqual([]);
  });

  it('are looked for in no table once their fill has finished, and in each table with a body until then', async () => {
    expect(
      (await request(server, 'POST', '/cms-content', { json: { title: 'Pages', table: 'pages', columns: COLUMNS } }))
        .response.status,
    ).toBe(201);
    const { engine } = server.database;
    const db = server.database.db as unknown as Kysely<unknown>;
    const fill = AFTER_MIGRATION_STEPS[SEARCH_TEXT_MIGRATION];
    // Each table the fill looks at, it first looks up in the catalog.
    const looked = vi.spyOn(engine.schema, 'hasTable');
    try {
      await fill(db, engine);
      expect(looked).not.toHaveBeenCalled();
      await forgetFinishedFill(db);
      await fill(db, engine);
      expect(looked).toHaveBeenCalledWith(expect.anything(), 'pages');
      looked.mockClear();
      // Finished again: the next start looks at nothing.
      await fill(db, engine);
      expect(looked).not.toHaveBeenCalled();
    } finally {
      looked.mockRestore();
    }
  });
});
