import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A new content type whose slug or table another type holds: the 409 names that type (its slug and
 * title, as data) and a free slug to take instead, so a client can offer it.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());

const TITLED = [{ name: 'title', label: 'Title', type: 'text', required: true }];
const create = (json: Record<string, unknown>) =>
  request(server, 'POST', '/cms-content', { json: { columns: TITLED, ...json } });

describe('a new type whose slug another type holds', () => {
  it('is refused with a 409 naming the holder and a free slug made from it', async () => {
    const before = (await request(server, 'GET', '/cms-content')).body;
    const { response, body } = await create({ title: 'Articles' });
    expect(response.status).toBe(409);
    expect(body.error.problems).toEqual({
      slug: { code: 'taken', type: 'articles', title: 'Articles', suggestion: 'my-articles' },
    });
    expect(body.error.fields.slug).toBe('is taken by the content type Articles (articles); my-articles is free');
    expect(body.error.message).toBe(
      'The slug articles is taken by the content type Articles (articles); the slug my-articles is free',
    );
    expect((await request(server, 'GET', '/cms-content')).body).toEqual(before);
  });

  it('suggests a slug that is really free: taking it succeeds, and the next suggestion moves on', async () => {
    const first = await create({ title: 'Articles' });
    const taken = await create({ title: 'Articles', slug: first.body.error.problems.slug.suggestion });
    expect(taken.response.status, taken.text).toBe(201);
    expect(taken.body).toMatchObject({ slug: 'my-articles', table: 'my_articles', custom: true });
    const again = await create({ title: 'Articles' });
    expect(again.body.error.problems.slug).toEqual({
      code: 'taken',
      type: 'articles',
      title: 'Articles',
      suggestion: 'articles-2',
    });
    // Holding `my-articles` itself, a type of that slug is pointed on to a numbered one.
    const mine = await create({ title: 'Mine', slug: 'my-articles' });
    expect(mine.body.error.problems.slug).toMatchObject({ type: 'my-articles', suggestion: 'my-articles-2' });
  });

  it('passes over a slug whose table another schema object holds', async () => {
    const other = await startTestServer();
    try {
      await sql.raw('create table my_news (id text)').execute(other.database.db);
      const { body } = await request(other, 'POST', '/cms-content', { json: { title: 'News', columns: TITLED } });
      expect(body.error.problems.slug).toEqual({ code: 'taken', type: 'news', title: 'News', suggestion: 'news-2' });
    } finally {
      await other.dispose();
    }
  });

  it('names the type holding a table given by hand', async () => {
    const { response, body } = await create({ title: 'Stories', table: 'news' });
    expect(response.status).toBe(409);
    expect(body.error.problems.table).toMatchObject({ code: 'taken', type: 'news', title: 'News' });
    expect(body.error.message).toContain('The table news is taken by the content type News (news)');
  });
});
