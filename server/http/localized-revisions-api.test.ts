import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The history of rows with localized columns: revisions hold every locale, each names the fields
 * it changed per locale, a restore (of a revision or from the trash) brings every locale back, and
 * the change feed names the locales a write touched.
 */

let server: TestServer;

const LOCALES = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['en'] },
  ],
};

const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
  { name: 'price', label: 'Price', type: 'number', required: false },
];

beforeAll(async () => {
  server = await startTestServer();
  const locales = await request(server, 'PUT', '/locales', { json: LOCALES });
  expect(locales.response.status, locales.text).toBe(200);
  const type = await request(server, 'POST', '/cms-content', { json: { title: 'Walks', columns: COLUMNS } });
  expect(type.response.status, type.text).toBe(201);
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

async function write(method: string, url: string, json: unknown) {
  const { response, body, text } = await request(server, method, url, { json });
  expect(response.status, text).toBeLessThan(300);
  return body;
}

async function localized(id: string) {
  const { body } = await request(server, 'GET', `/cms/walks/${id}?locale=all`);
  const row = body.rows[0];
  return { title: row.title, summary: row.summary, price: row.price };
}

async function revisionsOf(id: string) {
  const { body } = await request(server, 'GET', `/cms/walks/${id}/revisions`);
  return body.revisions as { id: number; fields: string[]; locales?: Record<string, string[]> }[];
}

describe('revisions of localized rows', () => {
  it('name the fields each change set per locale, and a restore brings every locale back', async () => {
    const created = await write('POST', '/cms/walks', { title: 'Dunes', summary: 'Sand', price: 4 });
    const id = created.id as string;
    await write('PUT', `/cms/walks/${id}?locale=de`, { title: 'Dünen' });
    await write('PUT', `/cms/walks/${id}?locale=fr`, { summary: 'Sable', price: 5 });
    const full = await localized(id);
    expect(full).toEqual({
      title: { en: 'Dunes', de: 'Dünen', fr: null },
      summary: { en: 'Sand', de: null, fr: 'Sable' },
      price: 5,
    });

    const [fr, de, create] = await revisionsOf(id);
    expect(create).toMatchObject({ fields: ['title', 'summary', 'price'], locales: { en: ['title', 'summary'] } });
    expect(de).toMatchObject({ fields: ['title'], locales: { de: ['title'] } });
    expect(fr).toMatchObject({ fields: ['price', 'summary'], locales: { fr: ['summary'] } });

    // A revision reads in a locale as the row does.
    const deRevision = await request(server, 'GET', `/cms/walks/${id}/revisions/${de.id}?locale=de`);
    expect(deRevision.body.row).toMatchObject({
      title: 'Dünen',
      summary: 'Sand',
      locale: 'de',
      fallbacks: { summary: 'en' },
    });
    const allRevision = await request(server, 'GET', `/cms/walks/${id}/revisions/${de.id}?locale=all`);
    expect(allRevision.body.row.title).toEqual({ en: 'Dunes', de: 'Dünen', fr: null });
    const unknown = await request(server, 'GET', `/cms/walks/${id}/revisions/${de.id}?locale=xx`);
    expect(unknown.response.status).toBe(400);

    // Back to the first revision: no German or French of its own.
    const first = await request(server, 'POST', `/cms/walks/${id}/revisions/${create.id}/restore?locale=de`);
    expect(first.response.status, first.text).toBe(200);
    expect(first.body.row).toMatchObject({ title: 'Dunes', locale: 'de', fallbacks: { title: 'en', summary: 'en' } });
    expect(await localized(id)).toEqual({
      title: { en: 'Dunes', de: null, fr: null },
      summary: { en: 'Sand', de: null, fr: null },
      price: 4,
    });
    expect(first.body.revision).toMatchObject({ locales: { de: ['title'], fr: ['summary'] } });

    // And forward to the newest: every locale back.
    const newest = await request(server, 'POST', `/cms/walks/${id}/revisions/${fr.id}/restore`);
    expect(newest.response.status, newest.text).toBe(200);
    expect(newest.body.row).toMatchObject({ title: 'Dunes', locale: 'en', fallbacks: {} });
    expect(await localized(id)).toEqual(full);
  });

  it('a row brought back from the trash has every locale', async () => {
    const created = await write('POST', '/cms/walks', { title: 'Cliffs', summary: 'Rock' });
    const id = created.id as string;
    await write('PUT', `/cms/walks/${id}?locale=all`, { title: { de: 'Klippen', fr: 'Falaises' } });
    const before = await localized(id);
    const deleted = await request(server, 'DELETE', `/cms/walks/${id}?locale=fr`);
    expect(deleted.response.status, deleted.text).toBe(200);
    expect(deleted.body).toMatchObject({ title: 'Falaises', locale: 'fr' });
    const back = await request(server, 'POST', `/cms/walks/trash/${id}/restore`);
    expect(back.response.status, back.text).toBe(200);
    expect(await localized(id)).toEqual(before);
  });

  it('a restore resolves along the chains the site has now', async () => {
    const created = await write('POST', '/cms/walks', { title: 'Moor', summary: 'Heath' });
    const id = created.id as string;
    await write('PUT', `/cms/walks/${id}?locale=de`, { title: 'Moor (de)' });
    const [withDe] = await revisionsOf(id);
    await write('PUT', `/cms/walks/${id}?locale=de`, { title: null });
    // fr now falls back to German first.
    const chains = {
      ...LOCALES,
      locales: [LOCALES.locales[0], LOCALES.locales[1], { ...LOCALES.locales[2], fallback: ['de', 'en'] }],
    };
    const changed = await request(server, 'PUT', '/locales', { json: chains });
    expect(changed.response.status, changed.text).toBe(200);
    const restored = await request(server, 'POST', `/cms/walks/${id}/revisions/${withDe.id}/restore?locale=fr`);
    expect(restored.response.status, restored.text).toBe(200);
    expect(restored.body.row).toMatchObject({ title: 'Moor (de)', fallbacks: { title: 'de', summary: 'en' } });
    const back = await request(server, 'PUT', '/locales', { json: LOCALES });
    expect(back.response.status, back.text).toBe(200);
  });
});

describe('the change feed', () => {
  it('names the locales a write touched', async () => {
    const created = await write('POST', '/cms/walks', { title: 'Forest' });
    const id = created.id as string;
    await write('PUT', `/cms/walks/${id}?locale=de`, { title: 'Wald' });
    await write('PUT', `/cms/walks/${id}?locale=all`, { title: { fr: 'Forêt' }, summary: { de: 'Bäume' } });
    await write('PUT', `/cms/walks/${id}`, { price: 7 });
    const { response, body, text } = await request(server, 'GET', '/changes?limit=1000');
    expect(response.status, text).toBe(200);
    const mine = body.changes.filter((change: { id: string }) => change.id === id);
    expect(mine.map((change: { action: string; locales?: string[] }) => [change.action, change.locales])).toEqual([
      ['create', ['en']],
      ['update', ['de']],
      ['update', ['de', 'fr']],
      ['update', []],
    ]);
  });
});
