import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { memoryAnswersForTests } from '../db/postgres/postgres-memory-search.js';
import { indexedSearchColumnsOf } from '../db/queries/search-text-columns.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import { memoryIndexOf } from '../db/sqlite/sqlite-memory-search-state.js';
import { searchColumnsInLocale } from '../locales/locale-search-columns.js';
import { callOk, request } from '../test-support/api-scenario.js';
import { LOCALIZED_TITLE, localesWith } from '../test-support/localized-fixtures.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Lists of a type with localized columns in a locale: filters, order and search read each
 * localized field's value in that locale after fallback (a row whose de title falls back to en is
 * found and ordered by the en text in de); `missing:<locale>` finds the rows lacking a value of
 * their own there; counts hold; unknown locales are refused. A type without localized columns
 * lists as before in any locale.
 */

let server: TestServer;

const LOCALES = localesWith({ de: ['en'], fr: ['de', 'en'] });

const COLUMNS: ColumnDescriptor[] = [
  LOCALIZED_TITLE,
  { name: 'tags', label: 'Tags', type: 'tags', required: false, localized: true },
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    required: false,
    options: [
      { id: 'draft', text: 'Draft' },
      { id: 'published', text: 'Published' },
    ],
  },
  { name: 'rank', label: 'Rank', type: 'number', required: false },
];

/** Each row's values per locale (a locale left out falls back). */
const ROWS = {
  harbour: {
    en: { title: 'Harbour', tags: ['sea'], status: 'published', rank: 1 },
    de: { title: 'Hafen', tags: ['meer'] },
  },
  beach: {
    en: { title: 'Beach', tags: ['sand'], status: 'published', rank: 2 },
    fr: { title: 'Plage', tags: ['sable'] },
  },
  castle: {
    en: { title: 'Castle', tags: ['stone'], status: 'draft', rank: 3 },
    de: { title: 'Burg', tags: ['stein'] },
    fr: { title: 'Château', tags: ['pierre'] },
  },
  zebra: { en: { title: 'Zebra crossing', status: 'draft', rank: 4 } },
} as const;
type Name = keyof typeof ROWS;
const ids = new Map<string, Name>();

beforeAll(async () => {
  server = await startTestServer();
  await callOk(server, 'PUT', '/locales', LOCALES);
  await callOk(server, 'POST', '/cms-content', { title: 'Places', columns: COLUMNS });
  await callOk(server, 'POST', '/cms-content', {
    title: 'Notes',
    columns: [{ name: 'title', label: 'Title', type: 'text', required: true }],
  });
  for (const [name, values] of Object.entries(ROWS)) {
    const created = await callOk(server, 'POST', '/cms/places', values.en);
    ids.set(created.id, name as Name);
    for (const locale of ['de', 'fr'] as const) {
      const inLocale = (values as Record<string, unknown>)[locale];
      if (inLocale) await callOk(server, 'PUT', `/cms/places/${created.id}?locale=${locale}`, inLocale);
    }
  }
  for (const title of ['Hafen', 'Beach']) await callOk(server, 'POST', '/cms/notes', { title });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

/** The list's rows by name, in order, with its counts. */
async function list(query: string): Promise<{ names: string[]; total: number; filtered: number; body: any }> {
  const { response, body, text } = await request(server, 'GET', `/cms/places?${query}`);
  expect(response.status, text).toBe(200);
  return {
    names: body.rows.map((row: { id: string }) => ids.get(row.id)),
    total: body.total,
    filtered: body.filtered,
    body,
  };
}

describe('filters in a locale', () => {
  it('matches the value after fallback: the de title of a row without one is its en title', async () => {
    expect((await list('locale=de&filter=title=Hafen')).names).toEqual(['harbour']);
    expect((await list('locale=de&filter=title=Beach')).names).toEqual(['beach']);
    expect((await list('filter=title=Hafen')).names).toEqual([]);
    // fr falls back to de, then en.
    expect((await list('locale=fr&filter=title=Hafen')).names).toEqual(['harbour']);
    expect((await list('locale=fr&filter=title=Zebra%20crossing')).names).toEqual(['zebra']);
  });

  it('compares, lists choices, finds tags and empties in the locale, with shared fields as they are', async () => {
    expect((await list('locale=de&filter=title%3EC&order=title')).names).toEqual(['harbour', 'zebra']);
    expect((await list('locale=fr&filter=title:in=Plage|Burg')).names).toEqual(['beach']);
    expect((await list('locale=de&filter=tags=meer')).names).toEqual(['harbour']);
    expect((await list('locale=fr&filter=tags=meer')).names).toEqual(['harbour']);
    expect((await list('locale=de&filter=tags=sand&filter=status=published')).names).toEqual(['beach']);
    expect((await list('locale=de&filter=tags:empty')).names).toEqual(['zebra']);
  });

  it('counts what it filters in the locale', async () => {
    const listed = await list('locale=de&filter=tags:notempty&limit=1');
    expect(listed).toMatchObject({ total: 4, filtered: 3 });
    expect(listed.names).toHaveLength(1);
  });

  it('filters in the default locale with locale=all', async () => {
    const all = await list('locale=all&filter=title=Harbour');
    expect(all.names).toEqual(['harbour']);
    expect(all.body.rows[0].title).toEqual({ en: 'Harbour', de: 'Hafen', fr: null });
  });
});

describe('order in a locale', () => {
  it('orders by the value after fallback, both ways, past an offset too', async () => {
    expect((await list('locale=de&order=title')).names).toEqual(['beach', 'castle', 'harbour', 'zebra']);
    expect((await list('locale=fr&order=title')).names).toEqual(['castle', 'harbour', 'beach', 'zebra']);
    expect((await list('locale=fr&order=title&desc=true')).names).toEqual(['zebra', 'beach', 'harbour', 'castle']);
    expect((await list('order=title')).names).toEqual(['beach', 'castle', 'harbour', 'zebra']);
    expect((await list('locale=fr&order=title&offset=1&limit=2')).names).toEqual(['harbour', 'beach']);
  });
});

describe('search in a locale', () => {
  it("finds the locale's text, a fallback's text in it, and not another locale's", async () => {
    expect((await list('locale=de&filter=search=hafen')).names).toEqual(['harbour']);
    expect((await list('locale=de&filter=search=beach')).names).toEqual(['beach']);
    expect((await list('locale=de&filter=search=harbour')).names).toEqual([]);
    expect((await list('filter=search=hafen')).names).toEqual([]);
    expect((await list('filter=search=harbour')).names).toEqual(['harbour']);
    expect((await list('locale=fr&filter=search=ch%C3%A2teau')).names).toEqual(['castle']);
    expect((await list('locale=fr&filter=search=haf')).names).toEqual(['harbour']);
  });

  it('counts a search in the locale, with filters', async () => {
    const found = await list('locale=de&filter=search=a&filter=status=published');
    expect(found.names.sort()).toEqual(['beach', 'harbour']);
    expect(found).toMatchObject({ total: 4, filtered: 2 });
  });

  it('finds a row written in a locale right after the write', async () => {
    const created = await callOk(server, 'POST', '/cms/places', { title: 'Lighthouse', rank: 9 });
    await callOk(server, 'PUT', `/cms/places/${created.id}?locale=de`, { title: 'Leuchtturm' });
    ids.set(created.id, 'lighthouse' as Name);
    expect((await list('locale=de&filter=search=leucht')).names).toEqual(['lighthouse']);
    expect((await list('locale=fr&filter=search=leucht')).names).toEqual(['lighthouse']);
    await callOk(server, 'DELETE', `/cms/places/${created.id}`);
    expect((await list('locale=de&filter=search=leucht')).names).toEqual([]);
  });
});

describe('missing:<locale>', () => {
  it('lists the rows lacking a value of their own in the locale, whatever their fallbacks give', async () => {
    expect((await list('filter=missing:de&order=rank')).names).toEqual(['beach', 'zebra']);
    expect((await list('filter=missing:fr&order=rank')).names).toEqual(['harbour', 'zebra']);
    // zebra has no tags at all, in the default locale either.
    expect((await list('filter=missing:en')).names).toEqual(['zebra']);
    expect((await list('locale=fr&filter=missing:DE&order=rank')).names).toEqual(['beach', 'zebra']);
  });

  it('combines with other filters and counts them', async () => {
    const listed = await list('filter=missing:de&filter=status=published');
    expect(listed.names).toEqual(['beach']);
    expect(listed).toMatchObject({ total: 4, filtered: 1 });
  });

  it('follows a translation written since', async () => {
    const zebra = [...ids].find(([, name]) => name === 'zebra')?.[0];
    await callOk(server, 'PUT', `/cms/places/${zebra}?locale=de`, { title: 'Zebrastreifen', tags: ['strasse'] });
    expect((await list('filter=missing:de')).names).toEqual(['beach']);
    await callOk(server, 'PUT', `/cms/places/${zebra}?locale=de`, { title: null, tags: null });
    expect((await list('filter=missing:de&order=rank')).names).toEqual(['beach', 'zebra']);
  });

  it('finds nothing missing in a type without localized fields', async () => {
    const { response, body } = await request(server, 'GET', '/cms/notes?filter=missing:de');
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ total: 2, filtered: 0, rows: [] });
  });
});

describe('unknown locales', () => {
  it.each([
    ['filter=missing:es', 'filter.missing'],
    ['filter=missing:all', 'filter.missing'],
    ['locale=es&filter=title=Hafen', 'locale'],
  ])('refuses %s with a 400 unknown_locale listing the locales', async (query, field) => {
    const { response, body } = await request(server, 'GET', `/cms/places?${query}`);
    expect(response.status).toBe(400);
    expect(body.error.fields?.[field] ?? body.error.problems?.[field] ?? body.error).toBeTruthy();
    expect(JSON.stringify(body)).toContain('unknown_locale');
    expect(JSON.stringify(body)).toContain('"en","de","fr"');
  });

  it('leaves a type without localized columns as it lists in every locale', async () => {
    const de = await request(server, 'GET', '/cms/notes?locale=de&filter=title=Hafen&order=title');
    const en = await request(server, 'GET', '/cms/notes?filter=title=Hafen&order=title');
    expect(de.response.status).toBe(200);
    expect(de.body.rows).toEqual(en.body.rows);
    expect(de.body.rows.map((row: { title: string }) => row.title)).toEqual(['Hafen']);
  });
});

describe('search in a locale, answered by an index of its own', () => {
  type Locales = typeof LOCALES | { default: string; locales: { code: string; label: string; fallback?: string[] }[] };
  let locales: Locales = LOCALES;

  /**
   * Lists `keyword` in `locale` and expects exactly the rows the plain scan finds over the locale's
   * columns, answered by the in-memory index of those columns (PostgreSQL counts its answers; on
   * SQLite the reading connection holds the index, built by the search).
   */
  async function expectIndexAsScan(locale: string, keyword: string): Promise<string[]> {
    const columns = searchColumnsInLocale(locales, COLUMNS, indexedSearchColumnsOf(COLUMNS), locale);
    const { database } = server;
    const scan = new ContentRepository({ db: database.db, engine: database.engine });
    const selection = { equals: [], search: { columns, keywords: [keyword] } };
    const expected = (await scan.listByScan('places', selection)).map((row) => String(row.id)).sort();
    const db = database.db as unknown as Kysely<unknown>;
    const answers = memoryAnswersForTests(db);
    const { body } = await list(`locale=${locale}&filter=search=${encodeURIComponent(keyword)}&limit=100`);
    const label = `${locale} ${keyword}`;
    expect(body.rows.map((row: { id: string }) => row.id).sort(), label).toEqual(expected);
    expect(body.filtered, label).toBe(expected.length);
    if (server.engine === 'postgres') expect(memoryAnswersForTests(db) - answers, label).toBeGreaterThan(0);
    else expect(database.runner && memoryIndexOf(database.runner, 'places', columns)?.ready, label).toBe(true);
    return body.rows.map((row: { id: string }) => ids.get(row.id)).sort();
  }

  async function setLocales(document: Locales): Promise<void> {
    await callOk(server, 'PUT', '/locales', document);
    locales = document;
  }

  it('finds own values and fallbacks in de and fr as the scan does', async () => {
    for (const locale of ['de', 'fr']) {
      for (const keyword of ['hafen', 'beach', 'harbour', 'a', 'ch', 'Burg', 'plage', 'zebra', 'â']) {
        await expectIndexAsScan(locale, keyword);
      }
    }
    expect(await expectIndexAsScan('fr', 'haf')).toEqual(['harbour']);
  });

  it('follows writes in de, and writes in en that de and fr fall back to', async () => {
    const harbour = [...ids].find(([, name]) => name === 'harbour')?.[0];
    const zebra = [...ids].find(([, name]) => name === 'zebra')?.[0];
    await expectIndexAsScan('de', 'hafen');
    await callOk(server, 'PUT', `/cms/places/${harbour}?locale=de`, { title: 'Seehafen Quirl' });
    expect(await expectIndexAsScan('de', 'quirl')).toEqual(['harbour']);
    expect(await expectIndexAsScan('fr', 'quirl')).toEqual(['harbour']);
    expect(await expectIndexAsScan('de', 'hafen')).toEqual(['harbour']);
    await callOk(server, 'PUT', `/cms/places/${zebra}`, { title: 'Zebrastreifen Quokka' });
    expect(await expectIndexAsScan('de', 'quokka')).toEqual(['zebra']);
    expect(await expectIndexAsScan('fr', 'quokka')).toEqual(['zebra']);
    expect(await expectIndexAsScan('de', 'crossing')).toEqual([]);
  });

  it('follows a locale added and removed, and a fallback chain changed', async () => {
    const added = {
      ...LOCALES,
      locales: [...LOCALES.locales, { code: 'it', label: 'Italiano', fallback: ['fr', 'en'] }],
    };
    await setLocales(added);
    expect(await expectIndexAsScan('it', 'plage')).toEqual(['beach']);
    await expectIndexAsScan('de', 'quirl');
    // fr falls back to en only: harbour's fr title is its en one now, not its de one.
    const chain = {
      ...added,
      locales: added.locales.map((one) => (one.code === 'fr' ? { ...one, fallback: ['en'] } : one)),
    };
    await setLocales(chain);
    expect(await expectIndexAsScan('fr', 'quirl')).toEqual([]);
    expect(await expectIndexAsScan('fr', 'harbour')).toEqual(['harbour']);
    expect(await expectIndexAsScan('it', 'harbour')).toEqual(['harbour']);
    await setLocales(LOCALES);
    expect(await expectIndexAsScan('fr', 'quirl')).toEqual(['harbour']);
    expect(await expectIndexAsScan('de', 'quokka')).toEqual(['zebra']);
  });
});
