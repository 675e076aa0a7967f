// Engine: PostgreSQL only: two servers share one PostgreSQL database, which SQLite never does.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/** The site's languages on a team server: a change made through one server is what the other answers next. */

const postgres = await postgresForTests();

const GERMAN = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};

describe.skipIf(!postgres.available)(`locales on two servers sharing one database${skipNote(postgres)}`, () => {
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

  it('a change through one server is what the other answers next', async () => {
    expect(await callApi(b, 'GET', '/locales')).toEqual({ status: 200, body: DEFAULT_LOCALES });
    expect(await callApi(a, 'PUT', '/locales', GERMAN)).toEqual({ status: 200, body: GERMAN });
    expect(await callApi(b, 'GET', '/locales')).toEqual({ status: 200, body: GERMAN });
    expect(await callApi(b, 'PUT', '/locales', DEFAULT_LOCALES)).toEqual({ status: 200, body: DEFAULT_LOCALES });
    expect(await callApi(a, 'GET', '/locales')).toEqual({ status: 200, body: DEFAULT_LOCALES });
    expect([a.errors, b.errors]).toEqual([[], []]);
  });

  it('a stale If-Match from one server is refused by the other', async () => {
    const read = await fetch(`${a.api}/locales`);
    const etag = read.headers.get('etag') as string;
    expect((await callApi(b, 'PUT', '/locales', GERMAN)).status).toBe(200);
    const stale = await fetch(`${a.api}/locales`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'if-match': etag },
      body: JSON.stringify(DEFAULT_LOCALES),
    });
    expect(stale.status).toBe(412);
    expect(((await stale.json()) as { error: { current: unknown } }).error.current).toEqual(GERMAN);
  });

  it('rows read and written on the other server follow a change of the locales without asking for them', async () => {
    expect((await callApi(a, 'PUT', '/locales', DEFAULT_LOCALES)).status).toBe(200);
    const columns = [{ name: 'title', label: 'Title', type: 'text', required: true, localized: true }];
    expect((await callApi(a, 'POST', '/cms-content', { title: 'Notes', columns })).status).toBe(201);
    const note = (await callApi(a, 'POST', '/cms/notes', { title: 'Harbour' })).body as { id: string };
    // b reads the notes once, in the only locale there is.
    expect((await callApi(b, 'GET', '/cms/notes?locale=de')).status).toBe(400);
    expect((await callApi(a, 'PUT', '/locales', GERMAN)).status).toBe(200);
    // b never reads /locales: its row requests see the change with the types' version.
    const german = await callApi(b, 'PUT', `/cms/notes/${note.id}?locale=de`, { title: 'Hafen' });
    expect(german.status).toBe(200);
    const read = await callApi(b, 'GET', `/cms/notes/${note.id}?locale=de`);
    expect(read.body).toMatchObject({ rows: [{ title: 'Hafen', locale: 'de', fallbacks: {} }] });
    expect((await callApi(a, 'GET', `/cms/notes/${note.id}?locale=de`)).body).toMatchObject({
      rows: [{ title: 'Hafen' }],
    });
    expect([a.errors, b.errors]).toEqual([[], []]);
  });

  it('a locale another server removed is a 400 unknown_locale on every row route of the other, which changed nothing', async () => {
    const note = (await callApi(a, 'POST', '/cms/notes', { title: 'Lighthouse' })).body as { id: string };
    const unknown = { code: 'unknown_locale', locales: ['en'] };
    for (const [method, path, json] of [
      ['GET', `/cms/notes/${note.id}?locale=de`],
      ['GET', '/cms/notes?locale=de'],
      ['PUT', `/cms/notes/${note.id}?locale=de`, { title: 'Leuchtturm' }],
      ['POST', '/cms/notes?locale=de', { title: 'Leuchtturm' }],
    ] as const) {
      // b reads in de, so it holds the locales and types with de; then a removes de.
      expect((await callApi(a, 'PUT', '/locales', GERMAN)).status).toBe(200);
      expect((await callApi(b, 'GET', `/cms/notes/${note.id}?locale=de`)).status).toBe(200);
      expect((await callApi(a, 'PUT', '/locales?force=true', DEFAULT_LOCALES)).status).toBe(200);
      const answer = await callApi(b, method, path, json);
      expect([method, path, answer.status, answer.body?.error?.detail]).toEqual([method, path, 400, unknown]);
    }
    const { body } = await callApi(a, 'GET', '/cms/notes');
    expect(body.rows.map((row: { title: string }) => row.title).sort()).toEqual(['Harbour', 'Lighthouse']);
    expect([a.errors, b.errors]).toEqual([[], []]);
  });
});
