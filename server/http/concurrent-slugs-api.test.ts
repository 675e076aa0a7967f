import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

// On PostgreSQL (server-pg) writers run in parallel transactions, each choosing the first free slug
// it can see; SQLite runs them one after another. Either way a generated slug is never a 409.
describe('creates running at once with one title', () => {
  it('all succeed, each with its own slug', async () => {
    server = await startTestServer();
    const answers = await Promise.all(
      Array.from({ length: 16 }, () =>
        request(server as TestServer, 'POST', '/cms/news', { json: newsBody({ title: 'Same title' }) }),
      ),
    );
    expect(
      answers.map((answer) => answer.response.status),
      JSON.stringify(answers.find((answer) => answer.response.status !== 201)?.body),
    ).toEqual(Array(16).fill(201));
    const slugs = answers.map((answer) => answer.body.rows[0].slug as string);
    expect(new Set(slugs).size).toBe(16);
    expect(slugs).toContain('same-title');
    const list = await request(server, 'GET', '/cms/news?filter=search=same%20title&limit=100');
    expect(list.body.filtered).toBe(16);
  });

  it('refuse a slug the requests name themselves to all but one, saying which field', async () => {
    server = await startTestServer();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(server as TestServer, 'POST', '/cms/news', {
          json: newsBody({ title: `Named ${i}`, slug: 'one-slug' }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of answers.filter((answer) => answer.response.status === 409)) {
      expect(refused.body.error.code).toBe('conflict');
    }
    const list = await request(server, 'GET', '/cms/news?filter=slug=one-slug');
    expect(list.body.filtered).toBe(1);
  });
});
