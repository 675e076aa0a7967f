import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { callOk, request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A relation reads its target's title and slug in the locale the row is read in: a shared
 * relation to a row with a localized title answers the German title in German, the default's in
 * the default locale and with `locale=all`.
 */

let server: TestServer;

const PLACES: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: false, parent: 'title', localized: true },
];

const TRIPS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'place', label: 'Place', type: 'relation', required: false, target: 'places' },
];

let trip: string;

beforeAll(async () => {
  server = await startTestServer();
  await callOk(server, 'PUT', '/locales', {
    default: 'en',
    locales: [
      { code: 'en', label: 'English' },
      { code: 'de', label: 'Deutsch', fallback: ['en'] },
      { code: 'fr', label: 'Français' },
    ],
  });
  await callOk(server, 'POST', '/cms-content', { title: 'Places', columns: PLACES });
  await callOk(server, 'POST', '/cms-content', { title: 'Trips', columns: TRIPS });
  const place = (await callOk(server, 'POST', '/cms/places', { title: 'Harbour' })).id;
  await callOk(server, 'PUT', `/cms/places/${place}?locale=de`, { title: 'Hafen' });
  trip = (await callOk(server, 'POST', '/cms/trips', { title: 'Morning', place })).id;
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

async function placeOf(query: string) {
  const { response, body, text } = await request(server, 'GET', `/cms/trips/${trip}${query}`);
  expect(response.status, text).toBe(200);
  const row = body.rows?.[0] ?? body;
  return { title: row.place?.title, slug: row.place?.slug };
}

describe('relations in a locale', () => {
  it("read the target's localized title and slug in the asked locale", async () => {
    expect(await placeOf('?locale=de')).toEqual({ title: 'Hafen', slug: 'hafen' });
    expect(await placeOf('')).toEqual({ title: 'Harbour', slug: 'harbour' });
    expect(await placeOf('?locale=all')).toEqual({ title: 'Harbour', slug: 'harbour' });
    // fr has no chain and no value of its own: the target has no title there.
    expect(await placeOf('?locale=fr')).toEqual({ title: null, slug: null });
  });

  it('read so in lists too', async () => {
    const { body } = await request(server, 'GET', '/cms/trips?locale=de');
    expect(body.rows.map((row: { place: { title: string } }) => row.place.title)).toEqual(['Hafen']);
  });
});
