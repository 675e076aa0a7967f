// Engine: both in one run: it compares PostgreSQL's search with SQLite's, row for row, on a PostgreSQL database of its
// own.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { startPostgresTestServer } from '../test-support/postgres-server.js';
import { startTestServer } from '../test-support/test-server.js';

/**
 * Search on PostgreSQL gives exactly SQLite's rows for the same data: the same Unicode
 * folding (JavaScript's NFC + toLowerCase, where PostgreSQL's lower() differs on İ and ẞ), every
 * keyword length, LIKE's own characters taken literally, and the same order of text.
 */

const postgres = await postgresForTests();

/** Titles chosen where foldings part ways: dotted İ, capital ẞ, final sigma, decomposed accents. */
const TITLES = [
  'Über Straße',
  'ÜBER alles',
  'uber eats',
  'İstanbul',
  'istanbul',
  'ISTANBUL',
  'ıslak',
  'GROẞE Halle',
  'große Halle',
  'Grosse Pointe',
  'café',
  'cafe\u0301 noir',
  'Cafe',
  'ΣΊΣΥΦΟΣ',
  'σίσυφος',
  'ǅungla',
  'ﬀ ligature',
  '100% real',
  '100 real',
  'snake_case',
  'snakeXcase',
  'back\\slash',
  'a',
  'ab',
  'x',
  'Ωmega',
  'Zebra',
  'zebra',
  'émile',
  'Ängel',
];

/** Keywords of every length, in every case, with LIKE's wildcards and escape. */
const KEYWORDS: (string | string[])[] = [
  'über',
  'ÜBER',
  'Über',
  'uber',
  'straße',
  'STRASSE',
  'ß',
  'ẞ',
  'ss',
  'İ',
  'i̇',
  'i',
  'I',
  'ı',
  'ist',
  'İST',
  'groß',
  'GROẞE',
  'é',
  'e',
  'café',
  'CAFÉ',
  'cafe',
  'e\u0301',
  'σ',
  'ς',
  'ΣΟΣ',
  'σίσυφος',
  'ǆ',
  'Ǆ',
  'ﬀ',
  'ff',
  '%',
  '100%',
  '_',
  'e_c',
  '\\',
  '\\s',
  'a',
  'ab',
  'x',
  'Ü',
  'ä',
  'z',
  'ω',
  'no-such-thing',
  'a\u0000',
  '\u0000',
  ['über', 'straße'],
  ['i', 'a'],
  ['é', 'n'],
];

describe.skipIf(!postgres.available)(`search on PostgreSQL against SQLite${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let sqlite: Awaited<ReturnType<typeof startTestServer>>;
  let pg: Awaited<ReturnType<typeof startPostgresTestServer>>;

  beforeAll(async () => {
    sqlite = await startTestServer();
    pg = await startPostgresTestServer(database().target);
    for (const api of [sqlite.api, pg.api]) {
      const type = await post(`${api}/cms-content`, {
        title: 'Places',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
        ],
      });
      expect(type.status).toBe(201);
      for (const [index, title] of TITLES.entries()) {
        const row = await post(`${api}/cms/places/p${String(index).padStart(2, '0')}`, { title });
        expect(row.status, title).toBe(201);
      }
    }
    // Half the SQLite rows reach its trigram index, the rest stay pending: both paths are compared.
    await sqlite.services.rows.searchFlushes.flush();
    for (const [index, title] of TITLES.entries()) {
      if (index % 2 === 0) continue;
      for (const api of [sqlite.api, pg.api]) {
        const changed = await fetch(`${api}/cms/places/p${String(index).padStart(2, '0')}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: `${title} ~` }),
        });
        expect(changed.status).toBe(200);
      }
    }
    // Two servers and two tables of titles: more than the default 10 s on a loaded machine.
  }, 60_000);

  afterAll(async () => {
    await pg?.close();
    await sqlite?.dispose();
  });

  it.each(KEYWORDS.map((keywords) => [JSON.stringify(keywords), keywords]))(
    'finds the same rows as SQLite for %s',
    async (_name, keywords) => {
      const query = [keywords]
        .flat()
        .map((keyword) => `filter=${encodeURIComponent(`search=${keyword}`)}`)
        .join('&');
      const [expected, actual] = await Promise.all([
        list(`${sqlite.api}/cms/places?${query}&limit=100`),
        list(`${pg.api}/cms/places?${query}&limit=100`),
      ]);
      expect(actual).toEqual(expected);
    },
  );

  it('finds something for most keywords (the comparison is not of empty lists)', async () => {
    const found = await list(`${pg.api}/cms/places?filter=${encodeURIComponent('search=İst')}&limit=100`);
    expect(found.ids).toEqual(['p03']);
    const sharp = await list(`${pg.api}/cms/places?filter=${encodeURIComponent('search=ẞ')}&limit=100`);
    expect(sharp.ids).toEqual(['p00', 'p07', 'p08']);
  });

  it('orders text as SQLite does (code point order, not the database locale)', async () => {
    const [expected, actual] = await Promise.all([
      list(`${sqlite.api}/cms/places?order=title&limit=100`),
      list(`${pg.api}/cms/places?order=title&limit=100`),
    ]);
    expect(actual.ids).toHaveLength(TITLES.length);
    expect(actual).toEqual(expected);
  });
});

async function post(url: string, json: unknown) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: await response.json() };
}

/** The ids a list answers, in order, and its counts. */
async function list(url: string): Promise<{ status: number; ids: string[]; total: number; filtered: number }> {
  const response = await fetch(url);
  const body = (await response.json()) as { rows?: { id: string }[]; total: number; filtered: number };
  return {
    status: response.status,
    ids: (body.rows ?? []).map((row) => row.id),
    total: body.total,
    filtered: body.filtered,
  };
}
