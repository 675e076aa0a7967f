import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formBody, request } from '../test-support/api-scenario.js';
import { databaseSnapshot } from '../test-support/hostile-http.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { DEFAULT_BODY_LIMIT } from './body-parsing.js';
import { MAX_JSON_ENTRIES } from './untrusted-input.js';

/**
 * `columns` sent as JSON text inside a form field (`columns=[...]`) or as a JSON string member
 * gets exactly the limits of a JSON body: otherwise a form could store a 4,000-deep option value
 * (after which every `GET /api/cms-content` would answer 500, also after a restart) or 30,000
 * options (a 770 KB answer to every read).
 */

/**
 * A select whose option carries a member nested 4,000 levels deep (a member other than `id` and
 * `text`, which no other check looks at).
 */
const DEEP = `[{"name":"kind","label":"Kind","type":"select","options":[{"id":"a","text":"A","note":${'['.repeat(4000)}${']'.repeat(4000)}}]}]`;

/** Hostile `columns` values, as JSON text, and the status a JSON body carrying them gets. */
const HOSTILE: [name: string, columns: string, status: number][] = [
  ['an option value nested 4,000 levels deep', DEEP, 400],
  // Short options, so that even form-encoded the body stays under the 1 MiB body limit.
  [
    '10,000 select options',
    JSON.stringify([
      {
        name: 'kind',
        label: 'Kind',
        type: 'select',
        options: Array.from({ length: 10_000 }, (_, i) => ({ id: `${i}`, text: '' })),
      },
    ]),
    413,
  ],
  [
    'a __proto__ key in an option',
    '[{"name":"kind","label":"Kind","type":"select","options":[{"id":"a","text":"A","__proto__":{"x":1}}]}]',
    400,
  ],
  ['a constructor key in a column', '[{"name":"kind","label":"Kind","type":"text","constructor":1}]', 400],
  ['a key given twice in a column', '[{"name":"kind","label":"Kind","type":"text","name":"other"}]', 400],
];

describe('JSON inside a form field gets the limits of a JSON body', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  /** Sends `columns` to a content-type write in one of three encodings. */
  const send = (how: 'JSON body' | 'JSON string member' | 'form field', method: 'POST' | 'PUT', columns: string) => {
    const url = method === 'POST' ? '/cms-content' : '/cms-content/news';
    const title = method === 'POST' ? 'Hostile' : 'News';
    if (how === 'form field') return request(server, method, url, { body: formBody({ title, columns }) });
    if (how === 'JSON string member') return request(server, method, url, { json: { title, columns } });
    // The text as is: parsing and re-encoding it would collapse a repeated key.
    const json = `{"title":${JSON.stringify(title)},"columns":${columns}}`;
    return request(server, method, url, { body: json, headers: { 'content-type': 'application/json' } });
  };

  describe.each(HOSTILE)('%s', (_name, columns, status) => {
    it.each([
      ['POST', 'JSON body'],
      ['POST', 'JSON string member'],
      ['POST', 'form field'],
      ['PUT', 'JSON string member'],
      ['PUT', 'form field'],
    ] as const)(
      '%s as a %s: refused with the JSON body status, nothing stored, reads still work',
      async (method, how) => {
        const before = await databaseSnapshot(server);
        const { response, body } = await send(how, method, columns);
        expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(status);
        expect(body.error.status).toBe(status);
        expect(await databaseSnapshot(server)).toBe(before);
        const list = await request(server, 'GET', '/cms-content');
        expect(list.response.status).toBe(200);
        expect(list.body.content_types.map((type: { table: string }) => type.table)).not.toContain('hostile');
        expect((await request(server, 'GET', '/cms-content/news')).response.status).toBe(200);
      },
    );
  });

  it('refuses the many options for their number, not for the size of the body', () => {
    const [, many] = HOSTILE[1];
    expect(formBody({ title: 'Hostile', columns: many }).length).toBeLessThan(DEFAULT_BODY_LIMIT);
  });

  it('says which limit a form field broke', async () => {
    const [, deep] = HOSTILE[0];
    const { body } = await send('form field', 'POST', deep);
    expect(body.error).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/JSON in columns is nested/),
    });
    const [, many] = HOSTILE[1];
    const { body: tooMany } = await send('form field', 'POST', many);
    expect(tooMany.error).toMatchObject({
      code: 'payload_too_large',
      message: expect.stringContaining(`more than ${MAX_JSON_ENTRIES} values`),
    });
  });

  it('still accepts a form field as deep as a JSON body may be: a select with its options', async () => {
    const columns = JSON.stringify([
      { name: 'name', label: 'Name', type: 'text', required: true },
      {
        name: 'kind',
        label: 'Kind',
        type: 'select',
        options: [
          { id: 'gig', text: 'Gig' },
          { id: 'talk', text: 'Talk' },
        ],
      },
    ]);
    const { response, body } = await request(server, 'POST', '/cms-content', {
      body: formBody({ title: 'Events', columns }),
    });
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(201);
    const read = await request(server, 'GET', '/cms-content/events');
    expect(read.body.columns.find((column: { name: string }) => column.name === 'kind').options).toEqual([
      { id: 'gig', text: 'Gig' },
      { id: 'talk', text: 'Talk' },
    ]);
  });
});
