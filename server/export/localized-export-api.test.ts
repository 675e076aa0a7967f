import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { exportCommand } from './export-command.js';
import type { ExportPage } from './export-pages.js';
import type { ExportIndex } from './site-export.js';

/**
 * `quire export` of a site with localized columns: without --locale, rows of such types as
 * `?locale=all` reads them; with --locale, rows read in that locale (fallbacks applied); --since
 * keeps the export's locale, and a change of the site's locales reads those types again.
 */

let server: TestServer;
let dir: string;
let harbour: string;
let market: string;

const LOCALES = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};

const COLUMNS = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title', localized: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'pages', label: 'Pages', type: 'number', required: false },
];

async function runExport(args: string[]): Promise<{ code: number; said: string; problems: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let said = '';
  let problems = '';
  stdout.on('data', (chunk) => {
    said += chunk;
  });
  stderr.on('data', (chunk) => {
    problems += chunk;
  });
  const where = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  const code = await exportCommand([...where, ...args], { out: stdout, err: stderr });
  return { code, said, problems };
}

const readJson = (path: string) => JSON.parse(readFileSync(join(dir, path), 'utf8'));

/** A type's rows in the export in `folder`, read from its pages as a builder does, by id. */
function rowsOf(folder: string, table: string): Map<string, Record<string, unknown>> {
  const index: ExportIndex = readJson(`${folder}/index.json`);
  const entry = index.content_types.find((type) => type.table === table);
  if (!entry) throw new Error(`${table} is not in the index`);
  const rows = new Map<string, Record<string, unknown>>();
  for (let page = 0; page < entry.page_count; page++) {
    const read: ExportPage = readJson(`${folder}/${entry.pages}${page}.json`);
    for (const row of read.rows) rows.set(row.id, row);
  }
  return rows;
}

beforeAll(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'quire-localized-export-'));
  await callOk(server, 'PUT', '/locales', LOCALES);
  await callOk(server, 'POST', '/cms-content', { title: 'Guides', columns: COLUMNS });
  harbour = (
    await callOk(server, 'POST', '/cms/guides?locale=all', { title: { en: 'Harbour', de: 'Hafen' }, pages: 3 })
  ).id;
  market = (await callOk(server, 'POST', '/cms/guides', { title: 'Market', body: 'Fresh fish' })).id;
  await callOk(server, 'POST', '/cms/categories', { title: 'Walks' });
});
afterAll(async () => {
  await server.dispose();
  rmSync(dir, { recursive: true, force: true });
});

describe('quire export of localized columns', () => {
  it('writes every locale’s own values without --locale, and types without localized columns as before', async () => {
    const result = await runExport(['--out', join(dir, 'all')]);
    expect(result.problems).toBe('');
    expect(result.code).toBe(0);
    const rows = rowsOf('all', 'guides');
    expect(rows.get(harbour)).toMatchObject({
      title: { en: 'Harbour', de: 'Hafen' },
      slug: { en: 'harbour', de: 'hafen' },
      body: { en: null, de: null },
      pages: 3,
      locale: 'all',
    });
    expect(rows.get(harbour)).not.toHaveProperty('fallbacks');
    // Each row's own file holds the same row as its page.
    expect(readJson(`all/guides/${harbour}.json`)).toEqual(rows.get(harbour));
    const [category] = rowsOf('all', 'categories').values();
    expect(category).toMatchObject({ title: 'Walks' });
    expect(category).not.toHaveProperty('locale');
    const index: ExportIndex = readJson('all/index.json');
    expect(index.locale).toBeUndefined();
    expect(index.locales).toEqual(LOCALES);
    // The export's own description has both shapes.
    expect(Object.keys(readJson('all/openapi.json').components.schemas)).toEqual(
      expect.arrayContaining(['Guide', 'GuideAllLocales', 'LocaleCode']),
    );
  });

  it('writes rows resolved in one locale with --locale, naming their fallbacks', async () => {
    const result = await runExport(['--out', join(dir, 'de'), '--locale', 'DE']);
    expect(result.code, result.problems).toBe(0);
    const rows = rowsOf('de', 'guides');
    expect(rows.get(harbour)).toMatchObject({ title: 'Hafen', slug: 'hafen', locale: 'de', fallbacks: {} });
    expect(rows.get(market)).toMatchObject({
      title: 'Market',
      slug: 'market',
      body: 'Fresh fish',
      locale: 'de',
      fallbacks: { title: 'en', slug: 'en', body: 'en' },
    });
    expect(readJson(`de/guides/${market}.json`)).toEqual(rows.get(market));
    const index: ExportIndex = readJson('de/index.json');
    expect(index.locale).toBe('de');
  });

  it('refuses a locale the site does not list, and --locale with --since, writing nothing', async () => {
    const unknown = await runExport(['--out', join(dir, 'xx'), '--locale', 'xx']);
    expect(unknown.code).toBe(1);
    expect(unknown.problems).toContain("xx is not one of the site's locales (en, de)");
    expect(() => readFileSync(join(dir, 'xx', 'index.json'))).toThrow();
    const both = await runExport(['--out', join(dir, 'de'), '--since', '--locale', 'en']);
    expect(both.code).toBe(2);
    expect(both.problems).toContain(
      '--since continues the export in --out with its own --type, --published-only and --locale',
    );
    expect(readJson('de/index.json').locale).toBe('de');
  });

  it('continues with --since in the export’s own locale', async () => {
    await callOk(server, 'PUT', `/cms/guides/${market}?locale=de`, { title: 'Markt' });
    const continued = await runExport(['--out', join(dir, 'de'), '--since']);
    expect(continued.code, continued.problems).toBe(0);
    expect(continued.said).toMatch(/[1-9]\d* files written/);
    expect(rowsOf('de', 'guides').get(market)).toMatchObject({
      title: 'Markt',
      slug: 'markt',
      locale: 'de',
      fallbacks: { body: 'en' },
    });
    expect(rowsOf('de', 'guides').get(harbour)).toMatchObject({ title: 'Hafen' });
    const all = await runExport(['--out', join(dir, 'all'), '--since']);
    expect(all.code, all.problems).toBe(0);
    expect(rowsOf('all', 'guides').get(market)).toMatchObject({ title: { en: 'Market', de: 'Markt' }, locale: 'all' });
  });

  it('reads localized types again when the site’s locales changed since', async () => {
    const locales = {
      default: 'en',
      locales: [...LOCALES.locales, { code: 'fr', label: 'Français', fallback: ['de', 'en'] }],
    };
    await callOk(server, 'PUT', '/locales', locales);
    const continued = await runExport(['--out', join(dir, 'all'), '--since']);
    expect(continued.code, continued.problems).toBe(0);
    expect(rowsOf('all', 'guides').get(harbour)).toMatchObject({ title: { en: 'Harbour', de: 'Hafen', fr: null } });
    expect(readJson('all/index.json').locales).toEqual(locales);
    const fr = await runExport(['--out', join(dir, 'fr'), '--locale', 'fr']);
    expect(fr.code, fr.problems).toBe(0);
    expect(rowsOf('fr', 'guides').get(harbour)).toMatchObject({ title: 'Hafen', fallbacks: { title: 'de' } });
  });
});
