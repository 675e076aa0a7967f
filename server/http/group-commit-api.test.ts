import { afterEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.dispose();
  server = undefined;
});

/** An id of the API's row-id form, different for each `n`. */
const rowId = (n: number) => `0190a1b2-c3d4-7e5f-8a9b-${String(n).padStart(12, '0')}`;

describe('concurrent writes (group-committed on SQLite: group-commit.test.ts checks the sharing)', () => {
  it('answer each create on its own: valid ones 201, invalid 400, taken ids and slugs 409; after a restart exactly the 201s are there', async () => {
    server = await startTestServer();
    const category = (await request(server, 'POST', '/cms/categories', { body: { title: 'Culture' } })).body.id;

    type Planned = { method: string; url: string; body: Record<string, unknown>; expected: number[] };
    const planned: Planned[] = [];
    for (let i = 0; i < 26; i++) {
      planned.push({ method: 'POST', url: '/cms/news', body: newsBody({ title: `Story ${i}` }), expected: [201] });
    }
    // Refused before the write runs (parsing) and inside it (a relation to no row).
    for (let i = 0; i < 4; i++) {
      planned.push({ method: 'POST', url: '/cms/news', body: newsBody({ status: 'bogus' }), expected: [400] });
      planned.push({
        method: 'POST',
        url: '/cms/articles',
        body: { title: `Orphan ${i}`, status: 'draft', published_at: '2025-01-01 10:00:00', category: rowId(999) },
        expected: [400],
      });
    }
    // The same id twice, and the same explicit slug twice: one of each pair wins, the other is 409.
    for (let i = 0; i < 4; i++) {
      for (const title of [`Twin ${i}`, `Twin ${i} again`]) {
        planned.push({ method: 'POST', url: `/cms/news/${rowId(i)}`, body: newsBody({ title }), expected: [201, 409] });
      }
      for (const title of [`Slugged ${i}`, `Slugged ${i} again`]) {
        planned.push({
          method: 'POST',
          url: '/cms/news',
          body: newsBody({ title, slug: `shared-slug-${i}` }),
          expected: [201, 409],
        });
      }
    }
    // Articles pointing at the category created before: they must not be failed by their neighbours.
    for (let i = 0; i < 8; i++) {
      planned.push({
        method: 'POST',
        url: '/cms/articles',
        body: { title: `Article ${i}`, status: 'draft', published_at: '2025-01-01 10:00:00', category },
        expected: [201],
      });
    }
    expect(planned).toHaveLength(58);

    const answers = await Promise.all(
      planned.map((write) => request(server as TestServer, write.method, write.url, { json: write.body })),
    );
    answers.forEach(({ response, body }, i) => {
      expect(
        planned[i].expected,
        `${planned[i].url} ${JSON.stringify(planned[i].body)}: ${JSON.stringify(body)}`,
      ).toContain(response.status);
    });
    // Each pair of twins: exactly one 201 and one 409 with the conflict named.
    const created = answers.filter(({ response }) => response.status === 201);
    const conflicts = answers.filter(({ response }) => response.status === 409);
    expect(created).toHaveLength(26 + 8 + 8);
    expect(conflicts).toHaveLength(8);
    for (const { body } of conflicts) expect(body.error.code).toBe('conflict');
    for (const { body } of answers.filter(({ response }) => response.status === 400)) {
      expect(body.error.code).toBe('validation_failed');
    }
    // A restart reads the file afresh: every 201 is there, nothing refused is.
    await server.stop();
    server = await startTestServer(reopenOptions(server));
    const news = (await request(server, 'GET', '/cms/news?limit=100&order=title')).body;
    const articles = (await request(server, 'GET', '/cms/articles?limit=100&order=title')).body;
    const createdIds = new Set(created.map(({ body }) => body.id));
    const storedIds = [...news.rows, ...articles.rows].map((row: { id: string }) => row.id);
    expect(new Set(storedIds)).toEqual(createdIds);
    expect(news.total).toBe(26 + 8);
    expect(articles.total).toBe(8);
    expect(articles.rows.every((row: { category: { id: string } }) => row.category.id === category)).toBe(true);
    const slugs = news.rows.map((row: { slug: string }) => row.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (let i = 0; i < 4; i++) expect(slugs.filter((slug: string) => slug === `shared-slug-${i}`)).toHaveLength(1);
  }, 30_000);

  it('answer updates and deletes arriving together with the row each one left', async () => {
    server = await startTestServer();
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push((await request(server, 'POST', '/cms/news', { json: newsBody({ title: `Row ${i}` }) })).body.id);
    }
    const answers = await Promise.all([
      ...ids
        .slice(0, 5)
        .map((id, i) => request(server as TestServer, 'PATCH', `/cms/news/${id}`, { body: { title: `Renamed ${i}` } })),
      ...ids.slice(5).map((id) => request(server as TestServer, 'DELETE', `/cms/news/${id}`)),
      // A row that is being deleted meanwhile, and one that never existed.
      request(server, 'PATCH', `/cms/news/${rowId(77)}`, { body: { title: 'Nobody' } }),
      request(server, 'DELETE', `/cms/news/${rowId(78)}`),
    ]);
    expect(answers.map(({ response }) => response.status)).toEqual([...Array(10).fill(200), 404, 404]);
    await server.stop();
    server = await startTestServer(reopenOptions(server));
    const list = (await request(server, 'GET', '/cms/news?limit=100&order=title')).body;
    expect(list.total).toBe(5);
    expect(list.rows.map((row: { title: string }) => row.title)).toEqual([0, 1, 2, 3, 4].map((i) => `Renamed ${i}`));
  }, 30_000);
});
