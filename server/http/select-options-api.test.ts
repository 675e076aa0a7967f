import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, request } from '../test-support/api-scenario.js';
import { databaseSnapshot } from '../test-support/hostile-http.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A select option is exactly `{ id, text }`: any other member is refused (400, naming the column)
 * rather than stored as sent, where it could carry anything within the body limits into every
 * read of the content types.
 */

const option = (extra: string) => `{"id":"a","text":"A",${extra}}`;
const selectWith = (optionText: string) =>
  `[{"name":"kind","label":"Kind","type":"select","required":false,"options":[${optionText}]}]`;

const EXTRA_MEMBERS: [string, string][] = [
  ['a string member', option('"colour":"red"')],
  ['an object member (as deep as a body may nest)', option('"note":{"x":1}')],
  ['an array member', option('"tags":["a","b"]')],
];

describe('select options accept only id and text', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  describe.each(EXTRA_MEMBERS)('an option with %s', (_name, extra) => {
    it.each([
      ['POST', '/cms-content', 'JSON'],
      ['POST', '/cms-content', 'form'],
      ['PUT', '/cms-content/news', 'JSON'],
      ['PUT', '/cms-content/news', 'form'],
    ] as const)('%s %s as %s: 400 naming the column, nothing stored', async (method, url, encoding) => {
      const before = await databaseSnapshot(server);
      const columns = selectWith(extra);
      const title = method === 'POST' ? 'Extra' : 'News';
      const { response, body } =
        encoding === 'form'
          ? await request(server, method, url, { body: formBody({ title, columns }) })
          : await request(server, method, url, {
              body: `{"title":${JSON.stringify(title)},"columns":${columns}}`,
              headers: { 'content-type': 'application/json' },
            });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(body.error.code).toBe('validation_failed');
      expect(Object.keys(body.error.fields ?? {}).some((name) => name.startsWith('columns[0]'))).toBe(true);
      expect(await databaseSnapshot(server)).toBe(before);
      const news = await request(server, 'GET', '/cms-content/news');
      expect(news.body.columns.map((column: { name: string }) => column.name)).toContain('title');
    });
  });

  it('still accepts options with exactly id and text', async () => {
    const { response, body } = await request(server, 'POST', '/cms-content', {
      body: `{"title":"Plain","columns":${selectWith(`{"id":"a","text":"A"},{"id":"b","text":""}`)}}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.columns[0].options).toEqual([
      { id: 'a', text: 'A' },
      { id: 'b', text: '' },
    ]);
  });
});
