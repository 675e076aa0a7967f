import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, request } from '../test-support/api-scenario.js';
import { openApiProblems, ResponseChecker } from '../test-support/openapi-responses.js';
import { pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import type { OpenApiDocument } from './openapi-document.js';

/**
 * The live OpenAPI document of a site with localized columns: valid, and every answer of a row
 * read or write in one locale and in all of them matches it.
 */

let server: TestServer;
let document: OpenApiDocument;
let checker: ResponseChecker;

const COLUMNS = [
  { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title', localized: true },
  { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
  { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
  { name: 'tags', label: 'Tags', type: 'tags', required: false, localized: true },
  { name: 'cover', label: 'Cover', type: 'image', required: false, localized: true },
  { name: 'price', label: 'Price', type: 'number', required: false },
];

/** Sends a request and checks its answer against the document; returns the answer. */
async function call(method: string, path: string, json?: unknown) {
  const answer = await request(server, method, path, json === undefined ? {} : { json });
  expect(checker.problems(method, path, answer.response.status, answer.body)).toEqual([]);
  return answer;
}

beforeAll(async () => {
  server = await startTestServer();
  await callOk(server, 'PUT', '/locales', {
    default: 'en',
    locales: [
      { code: 'en', label: 'English' },
      { code: 'de', label: 'Deutsch', fallback: ['en'] },
      { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
    ],
  });
  await callOk(server, 'POST', '/cms-content', { title: 'Guides', columns: COLUMNS });
  document = (await request(server, 'GET', '/openapi.json')).body;
  checker = new ResponseChecker(document);
});
afterAll(() => server.dispose());

describe('the OpenAPI document of a site with localized columns', () => {
  it('is valid and names the site’s locales', async () => {
    expect(await openApiProblems(document)).toEqual([]);
    expect(document.components.schemas.LocaleCode).toMatchObject({ enum: ['en', 'de', 'de-AT'] });
    const get = (document.paths['/cms/guides/{id}'] as any).get;
    const locale = get.parameters.find((parameter: { name: string }) => parameter.name === 'locale');
    expect(locale.schema.enum).toEqual(['en', 'de', 'de-AT', 'all']);
    // A type's rows read through /cms-content/{slug} take it too.
    const typeRead = (document.paths['/cms-content/{slug}'] as any).get;
    expect(typeRead.parameters.map((parameter: { name: string }) => parameter.name)).toContain('locale');
    const revisionRead = (document.paths['/cms/guides/{id}/revisions/{rev}'] as any).get;
    expect(revisionRead.parameters.map((parameter: { name: string }) => parameter.name)).toContain('locale');
  });

  it('matches every answer of rows read and written in one locale and in all', async () => {
    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'cover.png');
    const uploaded = (await (await fetch(`${server.api}/uploads`, { method: 'POST', body: upload })).json()) as {
      path: string;
    };
    const created = await call('POST', '/cms/guides?locale=all', {
      title: { en: 'Harbour', de: 'Hafen' },
      summary: { en: 'Along the quay' },
      tags: { en: ['sea'], de: ['See'] },
      cover: { de: uploaded.path },
      price: 12,
    });
    expect(created.response.status, created.text).toBe(201);
    const id = created.body.id;
    const inGerman = await call('POST', '/cms/guides?locale=de', { title: 'Markt' });
    expect(inGerman.response.status, inGerman.text).toBe(400); // the default locale's title stays required
    expect((await call('POST', '/cms/guides', { title: 'Market' })).response.status).toBe(201);

    const austrian = await call('GET', `/cms/guides/${id}?locale=de-AT`);
    expect(austrian.body.rows[0]).toMatchObject({ title: 'Hafen', locale: 'de-AT', fallbacks: { title: 'de' } });
    expect((await call('GET', `/cms/guides/${id}?locale=all`)).body.rows[0].title).toEqual({
      en: 'Harbour',
      de: 'Hafen',
      'de-AT': null,
    });
    expect((await call('GET', '/cms/guides?locale=de&order=title')).body.count).toBe(2);
    expect((await call('GET', '/cms/guides?locale=all')).body.rows[0].locale).toBe('all');
    expect((await call('GET', '/cms/guides')).body.rows[0].locale).toBe('en');
    expect((await call('PUT', `/cms/guides/${id}?locale=de`, { summary: 'Am Kai' })).body.summary).toBe('Am Kai');
    // Revisions name the locales a change touched, and are read in a locale.
    const history = await call('GET', `/cms/guides/${id}/revisions`);
    expect(history.body.revisions[0].locales).toEqual({ de: ['summary'] });
    const revision = await call('GET', `/cms/guides/${id}/revisions/${history.body.revisions[0].id}?locale=de`);
    expect(revision.body.row).toMatchObject({ summary: 'Am Kai', locale: 'de' });
    const all = await call('PATCH', `/cms/guides/${id}?locale=all`, { title: { 'de-AT': 'Hafen (AT)' } });
    expect(all.body.title['de-AT']).toBe('Hafen (AT)');
    expect((await call('GET', `/cms/guides/${id}?locale=xx`)).response.status).toBe(400);
    expect((await call('DELETE', `/cms/guides/${id}`)).body.rowCount).toBe(1);
    expect(checker.checked).toBeGreaterThanOrEqual(12);
    // The check looks: a row read in one locale is not one read in all.
    expect(checker.matches('GuideAllLocales', austrian.body.rows[0])).not.toEqual([]);
  });
});
