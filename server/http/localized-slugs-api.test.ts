import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, request } from '../test-support/api-scenario.js';
import { localesWith, TITLE_SLUG_RANK } from '../test-support/localized-fixtures.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A localized slug: generated in each locale from the title written there, unique per locale among
 * the values reads in it find (after fallback: a slug shows in the locales falling back to it too),
 * a conflict refused 409 `taken` naming the field and the locale with nothing changed, and `slug=` lists reading
 * the asked locale's slugs.
 */

let server: TestServer;

const LOCALES = localesWith({ de: ['en'], fr: ['de', 'en'], es: [] });

beforeAll(async () => {
  server = await startTestServer();
  await callOk(server, 'PUT', '/locales', LOCALES);
  await callOk(server, 'POST', '/cms-content', { title: 'Places', columns: TITLE_SLUG_RANK });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

/** A row's slug and fallbacks read in `locale`. */
async function slugIn(id: string, locale: string): Promise<{ slug: unknown; from: unknown }> {
  const { response, body, text } = await request(server, 'GET', `/cms/places/${id}?locale=${locale}`);
  expect(response.status, text).toBe(200);
  const row = body.rows?.[0] ?? body;
  return { slug: row.slug, from: row.fallbacks?.slug };
}

/** The ids a list in `locale` finds by slug. */
async function bySlug(slug: string, locale: string): Promise<string[]> {
  const { response, body, text } = await request(server, 'GET', `/cms/places?locale=${locale}&filter=slug=${slug}`);
  expect(response.status, text).toBe(200);
  return body.rows.map((row: { id: string }) => row.id);
}

describe('localized slugs', () => {
  let harbour: string;

  it('generates a slug in a locale from the title written there, which the locales falling back to it show', async () => {
    harbour = (await callOk(server, 'POST', '/cms/places', { title: 'Harbour' })).id;
    await callOk(server, 'PUT', `/cms/places/${harbour}?locale=de`, { title: 'Hafen' });
    expect(await slugIn(harbour, 'en')).toEqual({ slug: 'harbour', from: undefined });
    expect(await slugIn(harbour, 'de')).toEqual({ slug: 'hafen', from: undefined });
    expect(await slugIn(harbour, 'fr')).toEqual({ slug: 'hafen', from: 'de' });
    expect(await slugIn(harbour, 'es')).toEqual({ slug: null, from: undefined });
  });

  it('generates every locale of a locale=all create', async () => {
    const created = await callOk(server, 'POST', '/cms/places?locale=all', {
      title: { en: 'Bridge', de: 'Brücke', es: 'Puente' },
    });
    expect(created.rows[0].slug).toEqual({ en: 'bridge', de: 'brucke', fr: null, es: 'puente' });
  });

  it('generates the locales a create’s slug map leaves out from their titles', async () => {
    const created = await callOk(server, 'POST', '/cms/places?locale=all', {
      title: { en: 'Tower', de: 'Turm' },
      slug: { en: 'the-tower' },
    });
    expect(created.rows[0].slug).toMatchObject({ en: 'the-tower', de: 'turm' });
    // A title first written in a locale by a locale=all change gives that locale its slug too.
    const changed = await callOk(server, 'PUT', `/cms/places/${created.id}?locale=all`, {
      title: { es: 'Torre' },
      slug: { en: 'the-tower' },
    });
    expect(changed.slug).toMatchObject({ en: 'the-tower', de: 'turm', es: 'torre' });
  });

  it('numbers a slug past one shown in a locale it would show in', async () => {
    // Its de and fr would fall back to "hafen", which the harbour shows there.
    const second = await callOk(server, 'POST', '/cms/places', { title: 'Hafen' });
    expect(second.rows[0].slug).toBe('hafen-2');
    expect(await bySlug('hafen', 'de')).toEqual([harbour]);
    expect(await bySlug('hafen', 'fr')).toEqual([harbour]);
    expect(await bySlug('hafen', 'en')).toEqual([]);
    expect(await bySlug('hafen-2', 'de')).toEqual([second.id]);
  });

  it('refuses a given slug another row shows in the locale: 409 taken naming the field and locale, nothing changed', async () => {
    const other = (await callOk(server, 'POST', '/cms/places', { title: 'Quay' })).id;
    const { response, body } = await request(server, 'PUT', `/cms/places/${other}?locale=de`, {
      json: { title: 'Kai', slug: 'hafen' },
    });
    expect(response.status).toBe(409);
    expect(body.error.problems).toEqual({ slug: { code: 'taken', locale: 'de' } });
    expect(body.error.fields).toEqual({ slug: 'is already taken in de' });
    expect(body.error.message).toBe('The slug "hafen" is already used by another row in de');
    expect(await slugIn(other, 'de')).toEqual({ slug: 'quay', from: 'en' });
    // Written in en, a slug shows in the locales falling back to en: held by another row in de, it names de.
    const inEn = await request(server, 'PUT', `/cms/places/${other}`, { json: { slug: 'hafen' } });
    expect(inEn.response.status).toBe(409);
    expect(inEn.body.error.problems).toEqual({ slug: { code: 'taken', locale: 'de' } });
    // A slug held in a locale no chain reaches is free in the others.
    await callOk(server, 'PUT', `/cms/places/${other}?locale=es`, { slug: 'muelle' });
    const muelle = await callOk(server, 'POST', '/cms/places', { title: 'Muelle' });
    expect(muelle.rows[0].slug).toBe('muelle');
    expect(await bySlug('muelle', 'es')).toEqual([other]);
    expect(await bySlug('muelle', 'en')).toEqual([muelle.id]);
  });

  it("lets a cleared slug fall back, and keeps a row's own slug when its title changes", async () => {
    await callOk(server, 'PUT', `/cms/places/${harbour}?locale=de`, { title: 'Alter Hafen' });
    expect(await slugIn(harbour, 'de')).toEqual({ slug: 'hafen', from: undefined });
    await callOk(server, 'PUT', `/cms/places/${harbour}?locale=de`, { slug: null });
    expect(await slugIn(harbour, 'de')).toEqual({ slug: 'harbour', from: 'en' });
    expect(await bySlug('hafen', 'de')).toEqual([]);
  });

  it('refuses a change of the chains that would give two rows one slug in a locale: 409, nothing changed', async () => {
    // es holds "muelle" of its own on one row; another row's en slug is "muelle": es falling back to en clashes.
    const clashing = {
      ...LOCALES,
      locales: LOCALES.locales.map((locale) => (locale.code === 'es' ? { ...locale, fallback: ['en'] } : locale)),
    };
    const { response, body } = await request(server, 'PUT', '/locales', { json: clashing });
    expect(response.status).toBe(409);
    expect(body.error.code).toBe('conflict');
    expect(body.error.message).toContain('slug');
    const { body: now } = await request(server, 'GET', '/locales');
    expect(now).toEqual(LOCALES);
    expect(await bySlug('muelle', 'es')).toHaveLength(1);
  });
});
