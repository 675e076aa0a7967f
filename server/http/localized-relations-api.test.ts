import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { callOk, request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A relation reads its target's title and slug in the locale the row is read in: a shared
 * relation to a row with a localized title answers the German title in German, the default's in
 * the default locale and with `locale=all`. Rich-text links to rows follow the same rule: a link's
 * address has the linked row's slug in the locale read, after fallback.
 */

let server: TestServer;

const PLACES: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: false, parent: 'title', localized: true },
];

const TRIPS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'place', label: 'Place', type: 'relation', required: false, target: 'places' },
  { name: 'notes', label: 'Notes', type: 'richtext', required: false },
];

let trip: string;
let place: string;
/** A place with no German of its own. */
let lighthouse: string;

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
  place = (await callOk(server, 'POST', '/cms/places', { title: 'Harbour' })).id;
  await callOk(server, 'PUT', `/cms/places/${place}?locale=de`, { title: 'Hafen' });
  lighthouse = (await callOk(server, 'POST', '/cms/places', { title: 'Lighthouse' })).id;
  const notes = `<p><a href="quire://row/places/${place}">In</a> <a href="quire://row/places/${lighthouse}">out</a></p>`;
  trip = (await callOk(server, 'POST', '/cms/trips', { title: 'Morning', place, notes })).id;
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

  it("filter by the target's slug in the asked locale", async () => {
    const tripsWith = async (query: string) => {
      const { response, body, text } = await request(server, 'GET', `/cms/trips?${query}`);
      expect(response.status, text).toBe(200);
      return body.rows.map((row: { id: string }) => row.id);
    };
    expect(await tripsWith('locale=de&filter=place.slug=hafen')).toEqual([trip]);
    expect(await tripsWith('locale=de&filter=place.slug=harbour')).toEqual([]);
    expect(await tripsWith('filter=place.slug=harbour')).toEqual([trip]);
    expect(await tripsWith('filter=place.slug=hafen')).toEqual([]);
    expect(await tripsWith('locale=fr&filter=place.slug=harbour')).toEqual([]);
  });
});

/** The addresses of a rich-text value's links. */
const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]);

describe('rich-text row links in a locale', () => {
  it("have the linked row's slug in the asked locale, after fallback", async () => {
    const hrefs = async (query: string) => {
      const { response, body, text } = await request(server, 'GET', `/cms/trips/${trip}${query}`);
      expect(response.status, text).toBe(200);
      return hrefsOf(body.rows[0].notes);
    };
    expect(await hrefs('?locale=de')).toEqual(['/places/hafen', '/places/lighthouse']);
    expect(await hrefs('')).toEqual(['/places/harbour', '/places/lighthouse']);
    expect(await hrefs('?locale=all')).toEqual(['/places/harbour', '/places/lighthouse']);
    // fr has no chain and no slug of its own: the address names the row by its id.
    expect(await hrefs('?locale=fr')).toEqual([`/places/${place}`, `/places/${lighthouse}`]);

    const list = await callOk(server, 'GET', '/cms/trips?locale=de');
    expect(hrefsOf(list.rows[0].notes)).toEqual(['/places/hafen', '/places/lighthouse']);
    // A write's answer shows the row as a read in its locale does.
    const written = await callOk(server, 'PUT', `/cms/trips/${trip}?locale=de`, { title: 'Morning' });
    expect(hrefsOf(written.notes)).toEqual(['/places/hafen', '/places/lighthouse']);
  });
});
