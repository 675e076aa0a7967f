import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { type OwnValues, ownValuesOf, storedFromOwn } from '../locales/localized-values.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * `"localized": true` in content-type writes: accepted on the localizable column types, refused on
 * the others and inside block types, published as sent, and `false` kept as absent.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

const create = (title: string, columns: unknown[]) =>
  request(server, 'POST', '/cms-content', { json: { title, columns } });

const TITLE: ColumnDescriptor = { name: 'title', label: 'Title', type: 'text', required: true };

describe('localized on a column descriptor', () => {
  it('is accepted on every localizable type and published', async () => {
    const columns: ColumnDescriptor[] = [
      { ...TITLE, localized: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: false, parent: 'title', localized: true },
      { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
      { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
      { name: 'keywords', label: 'Keywords', type: 'tags', required: false, localized: true },
      { name: 'cover', label: 'Cover', type: 'image', required: false, localized: true },
      { name: 'price', label: 'Price', type: 'number', required: false },
    ];
    const { response, body } = await create('Guides', columns);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.columns.map((column: ColumnDescriptor) => [column.name, column.localized])).toEqual([
      ['title', true],
      ['slug', true],
      ['summary', true],
      ['body', true],
      ['keywords', true],
      ['cover', true],
      ['price', undefined],
    ]);
    const read = await request(server, 'GET', '/cms-content/guides');
    expect(read.body.columns, read.text).toEqual(body.columns);
  });

  it('false is kept as absent, so a round trip compares equal', async () => {
    const { response, body } = await create('Plain notes', [{ ...TITLE, localized: false }]);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.columns[0]).not.toHaveProperty('localized');
    const again = await request(server, 'PUT', `/cms-content/${body.slug}`, { json: { columns: body.columns } });
    expect(again.response.status, again.text).toBe(200);
    expect(again.body.columns).toEqual(body.columns);
  });

  it('is refused on a type that stays shared, naming the type at the column, and creates nothing', async () => {
    const { response, body } = await create('Prices', [
      TITLE,
      { name: 'price', label: 'Price', type: 'number', required: false, localized: true },
      {
        name: 'kind',
        label: 'Kind',
        type: 'select',
        required: false,
        options: [{ id: 'a', text: 'A' }],
        localized: true,
      },
    ]);
    expect(response.status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.problems).toEqual({
      'columns[1]': { code: 'not_localizable', type: 'number' },
      'columns[2]': { code: 'not_localizable', type: 'select' },
    });
    expect((await request(server, 'GET', '/cms-content/prices')).response.status).toBe(404);
  });

  it('must be a boolean', async () => {
    const { response, body } = await create('Strings', [{ ...TITLE, localized: 'true' }]);
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ 'columns[0].localized': { code: 'not_a_boolean' } });
  });

  it('is refused inside block types: a block is part of its blocks column, which every locale shares', async () => {
    const { response, body } = await create('Pages with blocks', [
      TITLE,
      {
        name: 'sections',
        label: 'Sections',
        type: 'blocks',
        required: false,
        blocks: [
          {
            name: 'quote',
            label: 'Quote',
            columns: [{ name: 'text', label: 'Text', type: 'text', required: false, localized: true }],
          },
        ],
      },
    ]);
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({
      'columns[1].blocks[0].columns[0]': { code: 'not_localizable', type: 'blocks' },
    });
  });

  it('is refused when a type change leaves it on a type that cannot be localized, and changes nothing', async () => {
    await create('Memos', [TITLE, { name: 'note', label: 'Note', type: 'markdown', required: false, localized: true }]);
    const changed = await request(server, 'PUT', '/cms-content/memos', {
      json: {
        columns: [TITLE, { name: 'note', label: 'Note', type: 'richtext', required: false, localized: true }],
      },
    });
    expect(changed.response.status).toBe(400);
    expect(changed.body.error.problems).toEqual({ 'columns[1]': { code: 'not_localizable', type: 'richtext' } });
    const read = await request(server, 'GET', '/cms-content/memos');
    expect(read.body.columns[1]).toMatchObject({ type: 'markdown', localized: true });
  });
});

/** Three locales: de falls back to en, fr to de then en. */
const LOCALES: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['de', 'en'] },
  ],
};

type StoredRow = Record<string, unknown>;

/** The SQL columns of a table (either engine), order key columns aside. */
async function sqlColumns(table: string): Promise<string[]> {
  const tables = await server.database.db.introspection.getTables();
  const found = tables.find((each) => each.name === table && !each.isView)?.columns ?? [];
  return found.map((column) => column.name).filter((name) => !name.startsWith('quire_key:'));
}

/** The locale storage columns of a table, sorted. */
async function localeColumns(table: string): Promise<string[]> {
  return (await sqlColumns(table))
    .filter((name) => name.startsWith('quire_loc:') || name.startsWith('quire_missing:'))
    .sort();
}

const rows = () => server.database.db as unknown as Kysely<Record<string, StoredRow>>;

/** A row as stored (this suite is about storage). */
async function stored(table: string, id: string): Promise<StoredRow> {
  return rows().selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The site's locales and a type's columns, as the API gives them. */
async function schemaOf(slug: string): Promise<{ document: LocalesDocument; columns: ColumnDescriptor[] }> {
  const document = (await request(server, 'GET', '/locales')).body as LocalesDocument;
  const columns = (await request(server, 'GET', `/cms-content/${slug}`)).body.columns as ColumnDescriptor[];
  return { document, columns };
}

/** Every locale's own values of a stored row. */
async function ownOf(slug: string, id: string): Promise<OwnValues> {
  const { document, columns } = await schemaOf(slug);
  return ownValuesOf(document, columns, await stored(slug, id));
}

/** Sets a row's own values in `locale` as a write in that locale stores them. */
async function writeOwn(slug: string, id: string, locale: string, values: Record<string, unknown>): Promise<void> {
  const { document, columns } = await schemaOf(slug);
  const own = ownValuesOf(document, columns, await stored(slug, id));
  own[locale] = { ...own[locale], ...values };
  await rows()
    .updateTable(slug)
    .set(storedFromOwn(document, columns, own))
    .where('id', '=', id)
    .execute();
}

async function changeColumns(slug: string, columns: unknown[]) {
  const changed = await request(server, 'PUT', `/cms-content/${slug}`, { json: { columns } });
  expect(changed.response.status, changed.text).toBe(200);
  return changed.body;
}

async function lastChange(slug: string) {
  return (await request(server, 'GET', `/cms-content-changes?type=${slug}`)).body.changes[0].detail;
}

const NOTE: ColumnDescriptor = { name: 'note', label: 'Note', type: 'textarea', required: false };
const BODY: ColumnDescriptor = { name: 'body', label: 'Body', type: 'markdown', required: false };

describe('locale storage columns follow the localized columns', () => {
  let id: string;

  beforeAll(async () => {
    const set = await request(server, 'PUT', '/locales', { json: LOCALES });
    expect(set.response.status, set.text).toBe(200);
  });

  it('a new type has a column per other locale for each localized column, and the missing columns', async () => {
    const { response, body } = await create('Harbours', [{ ...TITLE, localized: true }, NOTE, BODY]);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(await localeColumns('harbours')).toEqual([
      'quire_loc:de:title',
      'quire_loc:fr:title',
      'quire_missing:de',
      'quire_missing:en',
      'quire_missing:fr',
    ]);
    const created = await request(server, 'POST', '/cms/harbours', {
      json: { title: 'Harbour', note: 'Shared', body: 'Quay' },
    });
    expect(created.response.status, created.text).toBe(201);
    id = created.body.rows[0].id;
    await writeOwn('harbours', id, 'en', { title: 'Harbour' });
    await writeOwn('harbours', id, 'de', { title: 'Hafen' });
    expect(await ownOf('harbours', id)).toEqual({
      en: { title: 'Harbour' },
      de: { title: 'Hafen' },
      fr: { title: null },
    });
    // fr resolves along its chain to de.
    expect(await stored('harbours', id)).toMatchObject({
      'quire_loc:fr:title': 'Hafen',
      'quire_missing:fr': '{"title":"de"}',
    });
  });

  it('a type without localized columns has none', async () => {
    await create('Unlocalized', [TITLE, NOTE]);
    expect(await localeColumns('unlocalized')).toEqual([]);
  });

  it('turning localized on keeps the values as the default locale’s; the others fall back to it', async () => {
    await changeColumns('harbours', [{ ...TITLE, localized: true }, { ...NOTE, localized: true }, BODY]);
    expect(await localeColumns('harbours')).toEqual([
      'quire_loc:de:note',
      'quire_loc:de:title',
      'quire_loc:fr:note',
      'quire_loc:fr:title',
      'quire_missing:de',
      'quire_missing:en',
      'quire_missing:fr',
    ]);
    expect(await ownOf('harbours', id)).toEqual({
      en: { title: 'Harbour', note: 'Shared' },
      de: { title: 'Hafen', note: null },
      fr: { title: null, note: null },
    });
    expect(await stored('harbours', id)).toMatchObject({
      note: 'Shared',
      'quire_loc:de:note': 'Shared',
      'quire_loc:fr:note': 'Shared',
      'quire_missing:de': '{"note":"en"}',
      'quire_missing:fr': '{"title":"de","note":"en"}',
    });
  });

  it('a localized column renamed takes its locale columns and its gaps along', async () => {
    await writeOwn('harbours', id, 'fr', { note: 'Partagé' });
    await changeColumns('harbours', [
      { ...TITLE, localized: true },
      { ...NOTE, name: 'remark', from: 'note', localized: true },
      BODY,
    ]);
    expect(await localeColumns('harbours')).toEqual([
      'quire_loc:de:remark',
      'quire_loc:de:title',
      'quire_loc:fr:remark',
      'quire_loc:fr:title',
      'quire_missing:de',
      'quire_missing:en',
      'quire_missing:fr',
    ]);
    expect(await ownOf('harbours', id)).toEqual({
      en: { title: 'Harbour', remark: 'Shared' },
      de: { title: 'Hafen', remark: null },
      fr: { title: null, remark: 'Partagé' },
    });
    expect((await stored('harbours', id))['quire_missing:de']).toBe('{"remark":"en"}');
  });

  it('turning localized off keeps the default’s values, drops the others’ and the change names how many', async () => {
    await changeColumns('harbours', [{ ...TITLE, localized: true }, { ...NOTE, name: 'remark' }, BODY]);
    expect(await localeColumns('harbours')).toEqual([
      'quire_loc:de:title',
      'quire_loc:fr:title',
      'quire_missing:de',
      'quire_missing:en',
      'quire_missing:fr',
    ]);
    expect((await stored('harbours', id)).remark).toBe('Shared');
    expect(await ownOf('harbours', id)).toEqual({
      en: { title: 'Harbour' },
      de: { title: 'Hafen' },
      fr: { title: null },
    });
    expect((await stored('harbours', id))['quire_missing:fr']).toBe('{"title":"de"}');
    expect(await lastChange('harbours')).toMatchObject({
      changed: ['remark'],
      dropped_values: [{ column: 'remark', locale: 'fr', count: 1 }],
    });
  });

  it('removing the last localized column drops its locale columns and the missing columns', async () => {
    await changeColumns('harbours', [{ ...TITLE, name: 'name', from: 'title' }, BODY]);
    expect(await localeColumns('harbours')).toEqual([]);
    expect((await stored('harbours', id)).name).toBe('Harbour');
    await changeColumns('harbours', [{ ...TITLE, name: 'name', localized: true }]);
    expect(await localeColumns('harbours')).toEqual([
      'quire_loc:de:name',
      'quire_loc:fr:name',
      'quire_missing:de',
      'quire_missing:en',
      'quire_missing:fr',
    ]);
    expect(await sqlColumns('harbours')).not.toContain('body');
    expect(await ownOf('harbours', id)).toEqual({ en: { name: 'Harbour' }, de: { name: null }, fr: { name: null } });
  });
});

describe('locale changes store every localized table again', () => {
  let id: string;
  const putLocales = (document: LocalesDocument, query = '') =>
    request(server, 'PUT', `/locales${query}`, { json: document });
  const withLocales = (...locales: LocalesDocument['locales']): LocalesDocument => ({ default: 'en', locales });
  const EN = { code: 'en', label: 'English' };
  const DE = { code: 'de', label: 'Deutsch', fallback: ['en'] };

  beforeAll(async () => {
    expect((await putLocales(LOCALES)).response.status).toBe(200);
    await create('Ports', [{ ...TITLE, localized: true }, NOTE]);
    const created = await request(server, 'POST', '/cms/ports', { json: { title: 'Harbour', note: 'Shared' } });
    expect(created.response.status, created.text).toBe(201);
    id = created.body.rows[0].id;
    await writeOwn('ports', id, 'de', { title: 'Hafen' });
  });

  it('a locale added gets its columns on every such table, filled along its chain', async () => {
    const added = await putLocales({
      ...LOCALES,
      locales: [...LOCALES.locales, { code: 'it', label: 'Italiano', fallback: ['fr', 'de'] }],
    });
    expect(added.response.status, added.text).toBe(200);
    expect(await localeColumns('ports')).toEqual([
      'quire_loc:de:title',
      'quire_loc:fr:title',
      'quire_loc:it:title',
      'quire_missing:de',
      'quire_missing:en',
      'quire_missing:fr',
      'quire_missing:it',
    ]);
    expect(await stored('ports', id)).toMatchObject({
      'quire_loc:it:title': 'Hafen',
      'quire_missing:it': '{"title":"de"}',
    });
    // A type made before the locale was listed has its columns too.
    expect(await localeColumns('guides')).toContain('quire_loc:it:title');
  });

  it('a locale holding values is not removed without force: a 409 naming the count, nothing changed', async () => {
    const refused = await putLocales(withLocales(EN, { code: 'fr', label: 'Français', fallback: ['en'] }));
    expect(refused.response.status).toBe(409);
    expect(refused.body.error.detail).toEqual({ code: 'locale_in_use', locales: ['de', 'it'], count: 1 });
    expect(await localeColumns('ports')).toContain('quire_loc:de:title');
    expect((await ownOf('ports', id)).de).toEqual({ title: 'Hafen' });
  });

  it('a locale holding nothing of its own is removed without force', async () => {
    const removed = await putLocales(LOCALES);
    expect(removed.response.status, removed.text).toBe(200);
    expect(await localeColumns('ports')).not.toContain('quire_loc:it:title');
    expect(await localeColumns('ports')).not.toContain('quire_missing:it');
  });

  it('with force, a locale is removed with its values, and the chains through it resolve afresh', async () => {
    const forced = await putLocales(
      withLocales(EN, { code: 'fr', label: 'Français', fallback: ['en'] }),
      '?force=true',
    );
    expect(forced.response.status, forced.text).toBe(200);
    expect(await localeColumns('ports')).toEqual(['quire_loc:fr:title', 'quire_missing:en', 'quire_missing:fr']);
    expect(await stored('ports', id)).toMatchObject({
      title: 'Harbour',
      'quire_loc:fr:title': 'Harbour',
      'quire_missing:fr': '{"title":"en"}',
    });
  });

  it('own values survive a change of the default and back', async () => {
    expect((await putLocales(withLocales(EN, DE))).response.status).toBe(200);
    await writeOwn('ports', id, 'de', { title: 'Hafen' });
    const before = await ownOf('ports', id);
    expect(before).toEqual({ en: { title: 'Harbour' }, de: { title: 'Hafen' } });

    const german = await putLocales({
      default: 'de',
      locales: [
        { code: 'en', label: 'English', fallback: ['de'] },
        { code: 'de', label: 'Deutsch' },
      ],
    });
    expect(german.response.status, german.text).toBe(200);
    expect(await localeColumns('ports')).toEqual(['quire_loc:en:title', 'quire_missing:de', 'quire_missing:en']);
    expect(await stored('ports', id)).toMatchObject({
      title: 'Hafen',
      'quire_loc:en:title': 'Harbour',
      note: 'Shared',
    });
    expect(await ownOf('ports', id)).toEqual(before);
    const read = await request(server, 'GET', `/cms/ports/${id}?locale=en`);
    expect(read.body.rows[0]).toMatchObject({ title: 'Harbour', locale: 'en', fallbacks: {} });

    expect((await putLocales(withLocales(EN, DE))).response.status).toBe(200);
    expect(await localeColumns('ports')).toEqual(['quire_loc:de:title', 'quire_missing:de', 'quire_missing:en']);
    expect(await stored('ports', id)).toMatchObject({ title: 'Harbour', 'quire_loc:de:title': 'Hafen' });
    expect(await ownOf('ports', id)).toEqual(before);
  });

  it('a change of a chain alone stores the rows again', async () => {
    await writeOwn('ports', id, 'de', { title: null });
    expect((await stored('ports', id))['quire_missing:de']).toBe('{"title":"en"}');
    const unchained = await putLocales(withLocales(EN, { ...DE, fallback: [] }));
    expect(unchained.response.status, unchained.text).toBe(200);
    expect(await stored('ports', id)).toMatchObject({
      'quire_loc:de:title': null,
      'quire_missing:de': '{"title":null}',
    });
  });
});
