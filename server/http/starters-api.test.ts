import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { makeTeam } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The first run's starter sets (`/api/starters`): a new database keeps the four starter types the
 * spec's clients expect until an admin chooses; a choice is one transaction, recorded once made.
 */

const DEFAULT_STARTERS = ['news', 'categories', 'articles', 'menu_items'];

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.dispose());

const slugs = async () => (await request(server, 'GET', '/cms-content')).body.content_types.map((t: any) => t.slug);
const choose = (set: unknown) => request(server, 'POST', '/starters', { json: { set } });

describe('GET /api/starters on a new database', () => {
  it('offers the choice, names the four starter types, and leaves them as the API has them', async () => {
    const { response, body } = await request(server, 'GET', '/starters');
    expect(response.status).toBe(200);
    expect(body).toMatchObject({ choice: null, chosen_by: null, chosen_at: null, offer: true });
    expect(body.starters.map((starter: any) => [starter.slug, starter.title, starter.rows])).toEqual([
      ['news', 'News', 0],
      ['categories', 'Categories', 0],
      ['articles', 'Articles', 0],
      ['menu_items', 'Menu items', 0],
    ]);
    expect(body.sets.map((set: any) => set.set)).toEqual(['keep', 'empty', 'blog', 'docs']);
    for (const set of body.sets) expect(set.description).toMatch(/^[A-Z].+\.$/);
    expect(body.sets[0].types.map((type: any) => type.slug)).toEqual(DEFAULT_STARTERS);
    expect(body.sets[1].types).toEqual([]);
    // Reading asks nothing of the types: the API still has today's starters, untouched.
    expect(await slugs()).toEqual(DEFAULT_STARTERS);
  });

  it('offers no choice once a starter type was changed, even without rows', async () => {
    const changed = await request(server, 'PUT', '/cms-content/news', { json: { title: 'Stories' } });
    expect(changed.response.status, changed.text).toBe(200);
    expect((await request(server, 'GET', '/starters')).body).toMatchObject({ offer: false, choice: null });
  });

  it('offers no choice once a type holds a row, or once a type was made by hand', async () => {
    await request(server, 'POST', '/cms/news', { json: newsBody() });
    expect((await request(server, 'GET', '/starters')).body).toMatchObject({ offer: false, choice: null });
    const other = await startTestServer();
    try {
      const made = await request(other, 'POST', '/cms-content', {
        json: { title: 'Events', columns: [{ name: 'title', label: 'Title', type: 'text', required: true }] },
      });
      expect(made.response.status, made.text).toBe(201);
      expect((await request(other, 'GET', '/starters')).body).toMatchObject({ offer: false, choice: null });
    } finally {
      await other.dispose();
    }
  });
});

describe('POST /api/starters', () => {
  it('keep: changes no type and records the choice, which a restart keeps', async () => {
    const { response, body } = await choose('keep');
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ choice: 'keep', chosen_by: 'tester', offer: false });
    expect(body.chosen_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    expect(await slugs()).toEqual(DEFAULT_STARTERS);
    await server.stop();
    server = await startTestServer(reopenOptions(server));
    expect((await request(server, 'GET', '/starters')).body).toMatchObject({ choice: 'keep', offer: false });
  });

  it('empty: removes the starter types with their tables, and logs each removal', async () => {
    const { response, body } = await choose('empty');
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ choice: 'empty', offer: false, starters: [] });
    expect(await slugs()).toEqual([]);
    expect((await request(server, 'GET', '/cms/news')).response.status).toBe(404);
    const tables = (await server.database.db.introspection.getTables()).map((table) => table.name);
    for (const table of DEFAULT_STARTERS) expect(tables).not.toContain(table);
    const log = (await request(server, 'GET', '/cms-content-changes')).body;
    const removals = JSON.stringify(log);
    for (const slug of DEFAULT_STARTERS) expect(removals).toContain(`"type":"${slug}","action":"delete"`);
    // A type made now may take a starter's slug.
    const made = await request(server, 'POST', '/cms-content', {
      json: { title: 'Articles', columns: [{ name: 'title', label: 'Title', type: 'text', required: true }] },
    });
    expect(made.response.status, made.text).toBe(201);
  });

  it('blog: makes authors and posts in place of the starters, ready for rows', async () => {
    const { response, body } = await choose('blog');
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.starters.map((starter: any) => starter.slug)).toEqual(['authors', 'posts']);
    const types = (await request(server, 'GET', '/cms-content')).body.content_types;
    expect(types.map((type: any) => [type.slug, type.custom])).toEqual([
      ['authors', false],
      ['posts', false],
    ]);
    const author = await request(server, 'POST', '/cms/authors', { json: { name: 'Ada Lovelace' } });
    expect(author.response.status, author.text).toBe(201);
    const post = await request(server, 'POST', '/cms/posts', {
      json: {
        title: 'Hello',
        status: 'published',
        published_at: '2026-01-01 09:00:00',
        body: '# Hi',
        tags: ['first'],
        author: author.body.id,
      },
    });
    expect(post.response.status, post.text).toBe(201);
    expect(post.body.rows[0]).toMatchObject({ slug: 'hello', tags: ['first'] });
  });

  it('docs: makes sections and pages in place of the starters', async () => {
    const { response, body } = await choose('docs');
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(await slugs()).toEqual(['sections', 'pages']);
    const page = await request(server, 'POST', '/cms/pages', { json: { title: 'Install', status: 'draft' } });
    expect(page.response.status, page.text).toBe(201);
  });

  it('refuses with a 409 naming each starter type that holds rows, changing nothing', async () => {
    await request(server, 'POST', '/cms/news', { json: newsBody() });
    await request(server, 'POST', '/cms/news', { json: newsBody({ title: 'Another' }) });
    await request(server, 'POST', '/cms/categories', { json: { title: 'Sport' } });
    const before = (await request(server, 'GET', '/cms-content')).body;
    const { response, body } = await choose('blog');
    expect(response.status).toBe(409);
    expect(body.error.code).toBe('conflict');
    expect(body.error.problems).toEqual({
      news: { code: 'holds_rows', title: 'News', count: 2 },
      categories: { code: 'holds_rows', title: 'Categories', count: 1 },
    });
    expect(body.error.message).toContain('News (news) holds 2 rows');
    expect(body.error.message).toContain('Categories (categories) holds 1 row');
    expect((await request(server, 'GET', '/cms-content')).body).toEqual(before);
    expect((await request(server, 'GET', '/starters')).body.choice).toBeNull();
  });

  it('refuses while a type made by hand points at a starter type, naming its column', async () => {
    const made = await request(server, 'POST', '/cms-content', {
      json: {
        title: 'Events',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
        ],
      },
    });
    expect(made.response.status, made.text).toBe(201);
    const { response, body } = await choose('empty');
    expect(response.status).toBe(409);
    expect(body.error.problems).toEqual({ categories: { code: 'pointed_at', columns: ['events.category'] } });
    expect(await slugs()).toEqual([...DEFAULT_STARTERS, 'events']);
  });

  it('refuses a set whose slug a type made by hand holds, naming that type', async () => {
    const made = await request(server, 'POST', '/cms-content', {
      json: { title: 'Posts', columns: [{ name: 'title', label: 'Title', type: 'text', required: true }] },
    });
    expect(made.response.status, made.text).toBe(201);
    const { response, body } = await choose('blog');
    expect(response.status).toBe(409);
    expect(body.error.problems.slug).toMatchObject({ code: 'taken', type: 'posts', title: 'Posts' });
    expect(await slugs()).toEqual([...DEFAULT_STARTERS, 'posts']);
  });

  it('refuses an unknown set or member with a 400 listing the sets', async () => {
    const unknown = await choose('wiki');
    expect(unknown.response.status).toBe(400);
    expect(unknown.body.error.problems).toEqual({
      set: { code: 'not_an_option', options: ['keep', 'empty', 'blog', 'docs'] },
    });
    const extra = await request(server, 'POST', '/starters', { json: { set: 'keep', force: true } });
    expect(extra.response.status).toBe(400);
    for (const json of [['keep'], 'keep', { set: ['keep'] }, { set: null }, {}]) {
      const odd = await request(server, 'POST', '/starters', { json });
      expect(odd.response.status, JSON.stringify(json)).toBe(400);
      expect(odd.body.error.code).toMatch(/^(bad_request|validation_failed)$/);
    }
    const twice = await request(server, 'POST', '/starters', { body: 'set=keep&set=empty' });
    expect(twice.response.status).toBe(400);
    expect(await slugs()).toEqual(DEFAULT_STARTERS);
    expect((await request(server, 'GET', '/starters')).body.choice).toBeNull();
  });

  it('takes a form body too', async () => {
    const { response, body } = await request(server, 'POST', '/starters', { body: { set: 'keep' } });
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.choice).toBe('keep');
  });

  it('is for admins only, reading included (it names every type and counts its rows)', async () => {
    const team = await makeTeam(server);
    for (const who of ['editor', 'author', 'viewer', 'viewer_token', 'news_token']) {
      const refused = await request(server, 'POST', '/starters', { headers: team[who], json: { set: 'empty' } });
      expect(refused.response.status, who).toBe(403);
      const read = await request(server, 'GET', '/starters', { headers: team[who] });
      expect(read.response.status, who).toBe(403);
    }
    expect((await request(server, 'GET', '/starters', { headers: team.admin_token })).response.status).toBe(200);
    expect((await request(server, 'POST', '/starters', { json: { set: 'empty' } })).response.status).toBe(401);
    const chosen = await request(server, 'POST', '/starters', { headers: team.admin, json: { set: 'empty' } });
    expect(chosen.response.status, chosen.text).toBe(200);
    expect(chosen.body).toMatchObject({ choice: 'empty', chosen_by: 'ada' });
  });
});
