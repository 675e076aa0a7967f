import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, request } from '../test-support/api-scenario.js';
import { captureOutput } from '../test-support/captured-output.js';
import { LOCALIZED_SLUG, LOCALIZED_TITLE, localesWith } from '../test-support/localized-fixtures.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';
import { importCommand } from './import-command.js';

/**
 * `quire import` into a type with localized columns: CSV headers `title@de`, JSON objects keyed by
 * locale, each row stored in every locale (fallbacks resolved) as a `?locale=all` write stores it,
 * read back through the API. The import runs while the server is stopped, as a command would.
 */

let server: TestServer;
let dir: string;
let running = true;

const LOCALES = localesWith({ de: ['en'], fr: ['de', 'en'] });

const COLUMNS = [
  LOCALIZED_TITLE,
  { ...LOCALIZED_SLUG, required: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'tags', label: 'Tags', type: 'tags', required: false, localized: true },
  { name: 'pages', label: 'Pages', type: 'number', required: false },
];

/** Runs `quire import --type guides` on a file of `content` against the test server's database (stopped). */
async function runImport(name: string, content: string) {
  if (running) {
    await server.stop();
    running = false;
  }
  const path = join(dir, name);
  writeFileSync(path, content);
  const out = captureOutput();
  const err = captureOutput();
  const where = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  const code = await importCommand([...where, '--type', 'guides', path], { out, err });
  return { code, out: out.text, err: err.text };
}

/** The test server, started again on its database when an import stopped it. */
async function serving(): Promise<TestServer> {
  if (!running) {
    server = await startTestServer(reopenOptions(server));
    running = true;
  }
  return server;
}

async function read(path: string): Promise<any> {
  return callOk(await serving(), 'GET', path);
}

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'quire-localized-import-'));
  await callOk(server, 'PUT', '/locales', LOCALES);
  await callOk(server, 'POST', '/cms-content', { title: 'Guides', columns: COLUMNS });
});
afterAll(async () => {
  await server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('quire import into localized columns', () => {
  it('refuses a CSV header naming an unknown locale, a shared column or one value twice, naming the header', async () => {
    const refusals: [string, RegExp][] = [
      ['id,title,title@xx\nh,Harbour,Port\n', /title@xx: xx is not one of the site's locales \(en, de, fr\)/],
      ['id,title,pages@de\nh,Harbour,3\n', /pages@de names a locale of pages, which is shared by every locale/],
      ['id,title,title@en\nh,Harbour,Harbour\n', /title@en and title name the same value/],
      ['id,title,title@de,title@DE\nh,Harbour,Hafen,Hafen\n', /title@DE and title@de name the same value/],
      ['id,title,venue@de\nh,Harbour,Pier\n', /venue@de names a locale of venue, which guides does not have/],
    ];
    for (const [content, message] of refusals) {
      const result = await runImport('bad.csv', content);
      expect(result.code, result.err).toBe(1);
      expect(result.err).toMatch(message);
      expect(result.err).toContain('nothing was imported');
    }
  });

  it('refuses a row whose default locale lacks a required value, or whose JSON names an unknown locale', async () => {
    const csv = await runImport('missing.csv', 'id,title,title@de\nok,Tower,Turm\nno-english,,Nur Deutsch\n');
    expect(csv.code).toBe(1);
    expect(csv.err).toMatch(/missing\.csv line 3: title /);
    expect(csv.err).toContain('1 of 2 rows refused; nothing was imported');
    const json = await runImport(
      'unknown.json',
      JSON.stringify([{ title: { en: 'Tower' } }, { title: { en: 'Gate', xx: 'Tor' } }, { title: ['Not', 'text'] }]),
    );
    expect(json.code).toBe(1);
    expect(json.err).toMatch(/unknown\.json line 1: title@xx /);
    expect(json.err).toContain('2 of 3 rows refused');
    expect((await read('/cms/guides')).total).toBe(0);
  });

  it('imports CSV per-locale headers into every locale, with fallbacks and slugs per locale', async () => {
    const csv = [
      'id,title,title@de,slug@de,body@fr,tags,tags@de,pages',
      'harbour,Harbour,Hafen,,Le port,sea,See,3',
      'market,Market,,,,,,1',
      'castle,Castle,Burg,burg-am-see,,,,',
    ].join('\n');
    const result = await runImport('guides.csv', csv);
    expect(result.err).not.toContain('refused');
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/^Imported 3 guides rows from guides\.csv/);

    const harbour = (await read('/cms/guides/harbour?locale=de')).rows[0];
    expect(harbour).toMatchObject({ title: 'Hafen', slug: 'hafen', tags: ['See'], pages: 3, locale: 'de' });
    expect(harbour.fallbacks).toEqual({});
    const french = (await read('/cms/guides/harbour?locale=fr')).rows[0];
    expect(french).toMatchObject({ title: 'Hafen', body: 'Le port', locale: 'fr' });
    expect(french.fallbacks).toMatchObject({ title: 'de', slug: 'de', tags: 'de' });
    const market = (await read('/cms/guides/market?locale=de')).rows[0];
    expect(market).toMatchObject({ title: 'Market', slug: 'market', pages: 1 });
    expect(market.fallbacks).toEqual({ title: 'en', slug: 'en' });
    const all = (await read('/cms/guides/castle?locale=all')).rows[0];
    expect(all.title).toEqual({ en: 'Castle', de: 'Burg', fr: null });
    expect(all.slug).toEqual({ en: 'castle', de: 'burg-am-see', fr: null });
    // Reads by slug and lists in a locale see the imported locale columns.
    const bySlug = await read(`/cms/guides?locale=de&filter=${encodeURIComponent('slug=burg-am-see')}`);
    expect(bySlug.rows.map((row: { id: string }) => row.id)).toEqual(['castle']);
    const byTitle = await read(`/cms/guides?locale=de&filter=${encodeURIComponent('title=Market')}`);
    expect(byTitle.rows.map((row: { id: string }) => row.id)).toEqual(['market']);
    expect((await read(`/cms/guides?locale=de&filter=${encodeURIComponent('title=Castle')}`)).rows).toEqual([]);
  });

  it('imports JSON objects keyed by locale, and a plain value as the default locale’s', async () => {
    const rows = [
      { id: 'tower', title: { en: 'Tower', de: 'Turm' }, body: { fr: 'La tour' }, pages: 2 },
      { id: 'bridge', title: 'Bridge', tags: ['river'] },
    ];
    const result = await runImport('more.json', JSON.stringify(rows));
    expect(result.code, result.err).toBe(0);
    const tower = (await read('/cms/guides/tower?locale=all')).rows[0];
    expect(tower).toMatchObject({
      title: { en: 'Tower', de: 'Turm', fr: null },
      slug: { en: 'tower', de: 'turm', fr: null },
      body: { en: null, de: null, fr: 'La tour' },
      locale: 'all',
    });
    const bridge = (await read('/cms/guides/bridge?locale=fr')).rows[0];
    expect(bridge).toMatchObject({ title: 'Bridge', tags: ['river'], locale: 'fr' });
    expect(bridge.fallbacks).toMatchObject({ title: 'en', tags: 'en' });
  });

  it('refuses a slug another row holds in a locale, and imports nothing of that file', async () => {
    const result = await runImport('taken.csv', 'id,title,title@de,slug@de\nlake,Lake,See,hafen\n');
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/taken\.csv line 2: slug is already taken in de$/m);
    const listed = await request(await serving(), 'GET', '/cms/guides/lake');
    expect(listed.response.status).toBe(404);
    expect((await read('/cms/guides')).total).toBe(5);
  });
});
