import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { LOCALIZED_SLUG, LOCALIZED_TITLE, localesWith } from '../test-support/localized-fixtures.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Rows of a type with localized columns read and written in a locale: values resolved along the
 * fallback chains (none, one and two steps), `locale=all` and its round trip, writes in a locale,
 * clearing, the required rules, unknown locales refused with nothing changed, ETags per locale. A
 * type without localized columns answers as it always has.
 */

let server: TestServer;

const LOCALES = localesWith({ de: ['en'], 'de-AT': ['de', 'en'], fr: [] });

const COLUMNS: ColumnDescriptor[] = [
  LOCALIZED_TITLE,
  LOCALIZED_SLUG,
  { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'keywords', label: 'Keywords', type: 'tags', required: false, localized: true },
  { name: 'cover', label: 'Cover', type: 'image', required: false, localized: true },
  { name: 'price', label: 'Price', type: 'number', required: false },
];
const LOCALIZED = ['title', 'slug', 'summary', 'body', 'keywords', 'cover'];

const IMAGE_EN = '/media/2026/01/019a0000-0000-7000-8000-000000000001.jpg';
const IMAGE_DE = '/media/2026/01/019a0000-0000-7000-8000-000000000002.png';

const EN = {
  title: 'Harbour walk',
  slug: 'harbour-walk',
  summary: 'Along the quay',
  body: '# Harbour',
  keywords: ['sea', 'walk'],
  cover: IMAGE_EN,
};
const DE = {
  title: 'Hafenrundgang',
  slug: 'hafenrundgang',
  summary: 'Am Kai entlang',
  body: '# Hafen',
  keywords: ['meer'],
  cover: IMAGE_DE,
};

beforeAll(async () => {
  server = await startTestServer();
  const locales = await request(server, 'PUT', '/locales', { json: LOCALES });
  expect(locales.response.status, locales.text).toBe(200);
  const type = await request(server, 'POST', '/cms-content', { json: { title: 'Guides', columns: COLUMNS } });
  expect(type.response.status, type.text).toBe(201);
  const plain = await request(server, 'POST', '/cms-content', {
    json: { title: 'Notes', columns: [{ name: 'title', label: 'Title', type: 'text', required: true }] },
  });
  expect(plain.response.status, plain.text).toBe(201);
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

const pick = (row: Record<string, unknown>, names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, row[name]]));

let serial = 0;

/** `values` with slugs of their own (slugs are unique per locale). */
function ownSlugs(values: Record<string, unknown>): Record<string, unknown> {
  serial++;
  return typeof values.slug === 'string' ? { ...values, slug: `${values.slug}-${serial}` } : values;
}

async function createGuide(values: Record<string, unknown>, locale = ''): Promise<string> {
  // The first guide keeps its slugs as written; later ones get slugs of their own.
  const json = serial === 0 ? values : ownSlugs(values);
  if (serial === 0) serial++;
  const { response, body, text } = await request(server, 'POST', `/cms/guides${locale}`, { json });
  expect(response.status, text).toBe(201);
  return body.id as string;
}

async function read(id: string, locale: string) {
  const { response, body, text } = await request(server, 'GET', `/cms/guides/${id}?locale=${locale}`);
  expect(response.status, text).toBe(200);
  return body.rows[0] as Record<string, unknown>;
}

/** Every locale's reads of a row, without the times a write moves. */
async function everyRead(id: string) {
  const reads: Record<string, unknown> = {};
  for (const code of ['en', 'de', 'de-AT', 'fr', 'all']) {
    const { updated_at: _at, ...row } = await read(id, code);
    reads[code] = row;
  }
  return reads;
}

describe('reads in a locale', () => {
  it('resolve every localizable type along chains of none, one and two steps', async () => {
    const id = await createGuide({ ...EN, price: 12 });
    const en = await read(id, 'en');
    expect(pick(en, LOCALIZED)).toEqual(EN);
    expect(en).toMatchObject({ price: 12, locale: 'en', fallbacks: {} });

    // de and de-AT have no values of their own: one step (de -> en), two steps (de-AT -> de -> en).
    const de = await read(id, 'de');
    expect(pick(de, LOCALIZED)).toEqual(EN);
    const allFromEn = Object.fromEntries(LOCALIZED.map((name) => [name, 'en']));
    expect(de).toMatchObject({ locale: 'de', fallbacks: allFromEn, price: 12 });
    const deAt = await read(id, 'de-AT');
    expect(pick(deAt, LOCALIZED)).toEqual(EN);
    expect(deAt).toMatchObject({ locale: 'de-AT', fallbacks: allFromEn });
    // fr has no chain: nothing of its own, nothing to fall back to.
    const fr = await read(id, 'fr');
    expect(pick(fr, LOCALIZED)).toEqual({
      title: null,
      slug: null,
      summary: null,
      body: null,
      keywords: [],
      cover: null,
    });
    expect(fr).toMatchObject({ locale: 'fr', fallbacks: {}, price: 12 });

    const written = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: DE });
    expect(written.response.status, written.text).toBe(200);
    expect(pick(written.body, LOCALIZED)).toEqual(DE);
    expect(written.body).toMatchObject({ locale: 'de', fallbacks: {} });

    expect(pick(await read(id, 'en'), LOCALIZED)).toEqual(EN);
    expect(pick(await read(id, 'de'), LOCALIZED)).toEqual(DE);
    const deAtNow = await read(id, 'de-AT');
    expect(pick(deAtNow, LOCALIZED)).toEqual(DE);
    expect(deAtNow.fallbacks).toEqual(Object.fromEntries(LOCALIZED.map((name) => [name, 'de'])));
    // A locale's list reads the same values and carries the same members.
    const list = await request(server, 'GET', `/cms/guides?locale=de-at&filter=id=${id}`);
    expect(list.response.status, list.text).toBe(200);
    expect(list.body.rows[0]).toMatchObject({ ...DE, locale: 'de-AT', fallbacks: deAtNow.fallbacks });
  });

  it('locale=all answers each localized field as every locale own value, and a round trip changes nothing', async () => {
    const id = await createGuide({ ...EN, price: 3 });
    await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: { title: DE.title, cover: DE.cover } });
    const all = await read(id, 'all');
    expect(all.locale).toBe('all');
    expect(all).not.toHaveProperty('fallbacks');
    expect(all.title).toEqual({ en: EN.title, de: DE.title, 'de-AT': null, fr: null });
    expect(all.cover).toEqual({ en: EN.cover, de: DE.cover, 'de-AT': null, fr: null });
    expect(all.keywords).toEqual({ en: EN.keywords, de: null, 'de-AT': null, fr: null });
    expect(all.price).toBe(3);

    const before = await everyRead(id);
    const back = await request(server, 'PUT', `/cms/guides/${id}?locale=all`, { json: all });
    expect(back.response.status, back.text).toBe(200);
    expect(await everyRead(id)).toEqual(before);
    const revisions = await request(server, 'GET', `/cms/guides/${id}/revisions`);
    expect(revisions.body.revisions[0].fields).toEqual([]);
    expect(revisions.body.revisions[0]).not.toHaveProperty('locales');
  });
});

describe('writes in a locale', () => {
  it('write localized fields in that locale and shared fields for all; a partial map leaves the others', async () => {
    const id = await createGuide({ title: 'Lighthouse', price: 1 });
    const de = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: { title: 'Leuchtturm', price: 2 } });
    expect(de.response.status, de.text).toBe(200);
    expect(await read(id, 'en')).toMatchObject({ title: 'Lighthouse', price: 2 });
    expect(await read(id, 'de')).toMatchObject({ title: 'Leuchtturm', price: 2 });

    const all = await request(server, 'PUT', `/cms/guides/${id}?locale=all`, {
      json: { title: { fr: 'Phare', 'de-at': 'Leuchtturm (AT)' } },
    });
    expect(all.response.status, all.text).toBe(200);
    expect((await read(id, 'all')).title).toEqual({
      en: 'Lighthouse',
      de: 'Leuchtturm',
      'de-AT': 'Leuchtturm (AT)',
      fr: 'Phare',
    });
  });

  it('a title written in a locale gives the row its slug there; a slug taken there is refused', async () => {
    const id = await createGuide({ title: 'Quiet cove' });
    const de = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: { title: 'Stille Bucht' } });
    expect(de.response.status, de.text).toBe(200);
    expect(de.body).toMatchObject({ slug: 'stille-bucht', fallbacks: {} });
    expect((await read(id, 'en')).slug).toBe('quiet-cove');
    const other = await createGuide({ title: 'Other cove' });
    const taken = await request(server, 'PUT', `/cms/guides/${other}?locale=de`, { json: { slug: 'stille-bucht' } });
    expect(taken.response.status).toBe(409);
    expect(taken.body.error.problems).toEqual({ slug: { code: 'taken', locale: 'de' } });
    expect(await read(other, 'de')).toMatchObject({ slug: 'other-cove', fallbacks: { title: 'en', slug: 'en' } });
  });

  it('take the object form of locale=all from a form too', async () => {
    const { response, body, text } = await request(server, 'POST', '/cms/guides?locale=all', {
      body: 'title[en]=Form&title[de]=Formular&summary[fr]=Formulaire',
    });
    expect(response.status, text).toBe(201);
    const all = await read(body.id, 'all');
    expect(all.title).toEqual({ en: 'Form', de: 'Formular', 'de-AT': null, fr: null });
    expect(all.summary).toEqual({ en: null, de: null, 'de-AT': null, fr: 'Formulaire' });
  });

  it('clearing a value in a locale makes it fall back again', async () => {
    const id = await createGuide(EN);
    await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: ownSlugs(DE) });
    const cleared = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, {
      json: { summary: '', keywords: [], cover: null },
    });
    expect(cleared.response.status, cleared.text).toBe(200);
    const de = await read(id, 'de');
    expect(pick(de, ['title', 'summary', 'keywords', 'cover'])).toEqual({
      title: DE.title,
      summary: EN.summary,
      keywords: EN.keywords,
      cover: EN.cover,
    });
    expect(de.fallbacks).toEqual({ summary: 'en', keywords: 'en', cover: 'en' });
    expect((await read(id, 'de-AT')).fallbacks).toMatchObject({ title: 'de', summary: 'en' });
  });

  it("keep the default locale's required fields required, and let other locales be left empty", async () => {
    const count = async () => (await request(server, 'GET', '/cms/guides?limit=1')).body.total as number;
    const rows = await count();
    const inDe = await request(server, 'POST', '/cms/guides?locale=de', { json: { title: 'Nur Deutsch' } });
    expect(inDe.response.status).toBe(400);
    expect(inDe.body.error.problems).toEqual({ title: { code: 'required' } });
    const allWithoutEn = await request(server, 'POST', '/cms/guides?locale=all', { json: { title: { de: 'Nur' } } });
    expect(allWithoutEn.response.status).toBe(400);
    expect(allWithoutEn.body.error.problems).toEqual({ title: { code: 'required' } });
    expect(await count()).toBe(rows);

    const id = await createGuide({ title: { en: 'Quay', de: 'Kai' } }, '?locale=all');
    const emptyDe = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: { title: null } });
    expect(emptyDe.response.status, emptyDe.text).toBe(200);
    expect(emptyDe.body).toMatchObject({ title: 'Quay', fallbacks: { title: 'en' } });
    const emptyEn = await request(server, 'PUT', `/cms/guides/${id}`, { json: { title: '' } });
    expect(emptyEn.response.status).toBe(400);
    expect(emptyEn.body.error.problems).toEqual({ title: { code: 'required' } });
    const emptyAll = await request(server, 'PUT', `/cms/guides/${id}?locale=all`, { json: { title: { en: null } } });
    expect(emptyAll.response.status).toBe(400);
    expect((await read(id, 'en')).title).toBe('Quay');
  });

  it('refuse a non-object or an unknown locale in locale=all, changing nothing', async () => {
    const id = await createGuide(EN);
    const before = await everyRead(id);
    const notObject = await request(server, 'PUT', `/cms/guides/${id}?locale=all`, { json: { title: 'Flat' } });
    expect(notObject.response.status).toBe(400);
    expect(notObject.body.error.problems).toEqual({ title: { code: 'not_an_object' } });
    const unknown = await request(server, 'PUT', `/cms/guides/${id}?locale=all`, {
      json: { title: { en: 'New', xx: 'Neu' }, price: 9 },
    });
    expect(unknown.response.status).toBe(400);
    expect(unknown.body.error.problems).toEqual({
      'title@xx': { code: 'unknown_locale', locales: ['en', 'de', 'de-AT', 'fr'] },
    });
    expect(await everyRead(id)).toEqual(before);
  });
});

describe('an unknown locale', () => {
  it('is a 400 listing the locales on every read and write route, and changes nothing', async () => {
    const id = await createGuide(EN);
    const before = await everyRead(id);
    const total = (await request(server, 'GET', '/cms/guides?limit=1')).body.total;
    const tries: [string, string, unknown][] = [
      ['GET', `/cms/guides/${id}?locale=xx`, undefined],
      ['GET', '/cms/guides?locale=xx', undefined],
      ['POST', '/cms/guides?locale=xx', { title: 'New' }],
      ['PUT', `/cms/guides/${id}?locale=xx`, { title: 'Changed' }],
      ['PATCH', `/cms/guides/${id}?locale=zz-ZZ`, { title: 'Changed' }],
      ['DELETE', `/cms/guides/${id}?locale=xx`, undefined],
    ];
    for (const [method, url, json] of tries) {
      const { response, body } = await request(server, method, url, json === undefined ? {} : { json });
      expect(response.status, `${method} ${url}`).toBe(400);
      expect(body.error.problems, JSON.stringify(body)).toEqual({
        locale: { code: 'unknown_locale', locales: ['en', 'de', 'de-AT', 'fr'] },
      });
    }
    expect(await everyRead(id)).toEqual(before);
    expect((await request(server, 'GET', '/cms/guides?limit=1')).body.total).toBe(total);
  });
});

describe('ETags per locale', () => {
  it('differ per locale; a 304 and If-Match hold per locale', async () => {
    const id = await createGuide(EN);
    await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: { title: DE.title } });
    const en = await request(server, 'GET', `/cms/guides/${id}`);
    const de = await request(server, 'GET', `/cms/guides/${id}?locale=de`);
    const enTag = en.response.headers.get('etag') as string;
    const deTag = de.response.headers.get('etag') as string;
    expect(enTag).toBeTruthy();
    expect(deTag).not.toBe(enTag);
    const deAgain = await request(server, 'GET', `/cms/guides/${id}?locale=de`, {
      headers: { 'if-none-match': deTag },
    });
    expect(deAgain.response.status).toBe(304);
    const enWithDeTag = await request(server, 'GET', `/cms/guides/${id}`, { headers: { 'if-none-match': deTag } });
    expect(enWithDeTag.response.status).toBe(200);
    const listEn = await request(server, 'GET', `/cms/guides?filter=id=${id}`);
    const listDe = await request(server, 'GET', `/cms/guides?filter=id=${id}&locale=de`);
    expect(listDe.response.headers.get('etag')).not.toBe(listEn.response.headers.get('etag'));

    const stale = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, {
      json: { summary: 'Kurz' },
      headers: { 'if-match': enTag },
    });
    expect(stale.response.status).toBe(412);
    const held = await request(server, 'PUT', `/cms/guides/${id}?locale=de`, {
      json: { summary: 'Kurz' },
      headers: { 'if-match': deTag },
    });
    expect(held.response.status, held.text).toBe(200);
    const after = await request(server, 'GET', `/cms/guides/${id}?locale=de`);
    expect(held.response.headers.get('etag')).toBe(after.response.headers.get('etag'));
    expect(after.body.rows[0].summary).toBe('Kurz');
  });
});

describe('a type without localized columns', () => {
  it('answers the same with and without ?locale=en, and takes writes in a locale as before', async () => {
    const created = await request(server, 'POST', '/cms/notes?locale=de', { json: { title: 'Plain' } });
    expect(created.response.status, created.text).toBe(201);
    expect(created.body.rows[0]).not.toHaveProperty('locale');
    const id = created.body.id;
    const withoutTime = (text: string) => text.replace(/^\{"time":\{[^}]*\},/, '{');
    for (const path of [`/cms/notes/${id}`, '/cms/notes']) {
      const plain = await request(server, 'GET', path);
      const inEn = await request(server, 'GET', `${path}${path.includes('?') ? '&' : '?'}locale=en`);
      expect(withoutTime(inEn.text)).toBe(withoutTime(plain.text));
      expect(inEn.response.headers.get('etag')).toBe(plain.response.headers.get('etag'));
      expect(plain.text).not.toContain('"fallbacks"');
    }
    expect((await request(server, 'GET', `/cms/notes/${id}?locale=nope`)).response.status).toBe(400);
  });
});

describe('page meta and single types', () => {
  it('resolve the page meta in the locale read, and in the default locale for locale=all', async () => {
    const id = await createGuide({ title: 'Beacon' });
    await request(server, 'PUT', `/cms/guides/${id}?locale=de`, { json: { title: 'Leuchtfeuer' } });
    const meta = async (locale: string) =>
      (await request(server, 'GET', `/cms/guides/${id}?locale=${locale}`)).body.meta.title;
    expect(await meta('en')).toBe('Beacon');
    expect(await meta('de')).toBe('Leuchtfeuer');
    expect(await meta('de-AT')).toBe('Leuchtfeuer');
    expect(await meta('all')).toBe('Beacon');
  });

  it('a single type reads and writes its row in a locale', async () => {
    const type = await request(server, 'POST', '/cms-content', {
      json: {
        title: 'Site settings',
        type: 'single',
        columns: [{ name: 'title', label: 'Site name', type: 'text', required: true, localized: true }],
      },
    });
    expect(type.response.status, type.text).toBe(201);
    const path = `/cms/${type.body.table ?? type.body.slug}`;
    const inDe = await request(server, 'PUT', `${path}?locale=de`, { json: { title: 'Nur Deutsch' } });
    expect(inDe.response.status).toBe(400);
    expect(inDe.body.error.problems).toEqual({ title: { code: 'required' } });
    const first = await request(server, 'PUT', `${path}?locale=all`, {
      json: { title: { en: 'Harbour', fr: 'Port' } },
    });
    expect(first.response.status, first.text).toBe(201);
    const de = await request(server, 'PUT', `${path}?locale=de`, { json: { title: 'Hafen' } });
    expect(de.response.status, de.text).toBe(200);
    const read = async (locale: string) => (await request(server, 'GET', `${path}?locale=${locale}`)).body;
    expect((await read('de-AT')).rows[0]).toMatchObject({
      title: 'Hafen',
      locale: 'de-AT',
      fallbacks: { title: 'de' },
    });
    expect((await read('de-AT')).meta.title).toBe('Hafen');
    expect((await read('fr')).rows[0]).toMatchObject({ title: 'Port', fallbacks: {} });
    expect((await read('all')).rows[0].title).toEqual({ en: 'Harbour', de: 'Hafen', 'de-AT': null, fr: 'Port' });
    expect((await request(server, 'GET', `${path}?locale=xx`)).response.status).toBe(400);
  });
});
