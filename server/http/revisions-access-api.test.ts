import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Who may read and restore revisions and the trash once accounts exist: reading needs
 * read access to the type, a restore the right to change the row (an author only their own), and
 * revisions record the signed-in person. Refusals change nothing.
 */

let server: TestServer;
let team: Credentials;

beforeAll(async () => {
  server = await startTestServer();
  team = await makeTeam(server);
});
afterAll(async () => {
  await server?.dispose();
});

async function as(who: string, method: string, url: string, json?: unknown) {
  return request(server, method, url, { headers: team[who], ...(json === undefined ? {} : { json }) });
}

async function created(who: string, table = 'news'): Promise<string> {
  const { response, body, text } = await as(who, 'POST', `/cms/${table}`, newsBody({ title: `By ${who}` }));
  expect(response.status, text).toBe(201);
  return body.id as string;
}

describe('revisions and the trash with accounts', () => {
  it('record the signed-in person as who made each change', async () => {
    const id = await created('editor');
    await as('admin', 'PUT', `/cms/news/${id}`, { status: 'published' });
    const { body } = await as('viewer', 'GET', `/cms/news/${id}/revisions`);
    expect(body.revisions.map((revision: { by: string }) => revision.by)).toEqual(['ada', 'edna']);
  });

  it('are read with read access to the type, and refused without a credential or outside a token’s types', async () => {
    const id = await created('admin');
    for (const who of ['viewer', 'viewer_token', 'author', 'news_token']) {
      expect((await as(who, 'GET', `/cms/news/${id}/revisions`)).response.status, who).toBe(200);
      expect((await as(who, 'GET', '/cms/news/trash')).response.status, who).toBe(200);
    }
    expect((await as('none', 'GET', `/cms/news/${id}/revisions`)).response.status).toBe(401);
    expect((await as('none', 'GET', '/cms/news/trash')).response.status).toBe(401);
    expect((await as('news_token', 'GET', '/cms/articles/trash')).response.status).toBe(403);
  });

  it('content-type changes: a credential limited to some types reads only theirs', async () => {
    expect((await as('viewer', 'GET', '/cms-content-changes')).response.status).toBe(200);
    expect((await as('news_token', 'GET', '/cms-content-changes?type=news')).response.status).toBe(200);
    expect((await as('news_token', 'GET', '/cms-content-changes?type=articles')).response.status).toBe(403);
    expect((await as('news_token', 'GET', '/cms-content-changes')).response.status).toBe(403);
    expect((await as('none', 'GET', '/cms-content-changes')).response.status).toBe(401);
  });

  it('restore only for those who may change the row: not a viewer, an author only their own', async () => {
    const mine = await created('author');
    const theirs = await created('editor');
    await as('author', 'PUT', `/cms/news/${mine}`, { title: 'Author changed' });
    await as('editor', 'PUT', `/cms/news/${theirs}`, { title: 'Editor changed' });
    const first = async (id: string) => (await as('admin', 'GET', `/cms/news/${id}/revisions`)).body.revisions[1].id;
    const restore = (who: string, id: string, rev: number) =>
      as(who, 'POST', `/cms/news/${id}/revisions/${rev}/restore`);

    const viewer = await restore('viewer', theirs, await first(theirs));
    expect(viewer.response.status).toBe(403);
    expect((await restore('viewer_token', theirs, await first(theirs))).response.status).toBe(403);
    const author = await restore('author', theirs, await first(theirs));
    expect(author.response.status).toBe(403);
    expect(author.body.error.message).toMatch(/only rows they created/);
    expect((await as('admin', 'GET', `/cms/news/${theirs}/revisions`)).body.total).toBe(2);

    const own = await restore('author', mine, await first(mine));
    expect(own.response.status, own.text).toBe(200);
    expect(own.body.revision).toMatchObject({ action: 'restore', by: 'aldo' });
    expect((await restore('editor', theirs, await first(theirs))).response.status).toBe(200);
  });

  it('from the trash: an author may bring back only a row they created', async () => {
    const theirs = await created('editor');
    const mine = await created('author');
    await as('editor', 'DELETE', `/cms/news/${theirs}`);
    await as('author', 'DELETE', `/cms/news/${mine}`);
    const refused = await as('author', 'POST', `/cms/news/trash/${theirs}/restore`);
    expect(refused.response.status).toBe(403);
    expect((await as('viewer', 'POST', `/cms/news/trash/${mine}/restore`)).response.status).toBe(403);
    expect((await as('author', 'GET', `/cms/news/${theirs}`)).response.status).toBe(404);
    const own = await as('author', 'POST', `/cms/news/trash/${mine}/restore`);
    expect(own.response.status, own.text).toBe(200);
    expect(own.body.row).toMatchObject({ id: mine, created_by: 'aldo' });
  });
});

describe('ids held by the trash', () => {
  it('refuse a new row with the id of a row in the trash (409 in_trash), so its restore still finds it', async () => {
    const made = await as('editor', 'POST', '/cms/news/kept-by-trash', newsBody({ title: 'Deleted, not gone' }));
    expect(made.response.status, made.text).toBe(201);
    expect((await as('editor', 'DELETE', '/cms/news/kept-by-trash')).response.status).toBe(200);

    for (const who of ['author', 'admin']) {
      const taken = await as(who, 'POST', '/cms/news/kept-by-trash', newsBody({ title: `Taken by ${who}` }));
      expect(taken.response.status, taken.text).toBe(409);
      expect(taken.body.error.code).toBe('conflict');
      expect(taken.body.error.problems).toEqual({ id: { code: 'in_trash', table: 'news' } });
      expect(taken.body.error.message).toMatch(/in the trash/);
    }
    expect((await as('admin', 'GET', '/cms/news/kept-by-trash')).response.status).toBe(404);

    const restored = await as('editor', 'POST', '/cms/news/trash/kept-by-trash/restore');
    expect(restored.response.status, restored.text).toBe(200);
    expect(restored.body.row).toMatchObject({ id: 'kept-by-trash', title: 'Deleted, not gone', created_by: 'edna' });
  });
});

describe('the trash purged when a server starts', () => {
  it('removes rows deleted longer ago than the retention, with their revisions', async () => {
    let clock = Date.parse('2026-05-01T08:00:00Z');
    const options = { revisions: { now: () => new Date(clock), trashDays: 1 } };
    let first: TestServer | null = await startTestServer(options);
    const reopen = reopenOptions(first);
    let second: TestServer | null = null;
    try {
      const made = await request(first, 'POST', '/cms/news', { json: newsBody({ title: 'Old news' }) });
      const gone = made.body.id as string;
      expect((await request(first, 'DELETE', `/cms/news/${gone}`)).response.status).toBe(200);
      await first.stop();
      first = null;
      clock += 2 * 24 * 60 * 60 * 1000;
      second = await startTestServer({ ...reopen, ...options });
      // No request purged it: the start did.
      const revisions = await second.database.db
        .selectFrom('quire_revisions' as never)
        .select('row_id' as never)
        .execute();
      expect(revisions.map((row) => (row as { row_id: string }).row_id)).not.toContain(gone);
      expect((await request(second, 'GET', `/cms/news/${gone}/revisions`)).response.status).toBe(404);
      // Out of the trash, its id is free again.
      const again = await request(second, 'POST', `/cms/news/${gone}`, { json: newsBody({ title: 'New news' }) });
      expect(again.response.status, again.text).toBe(201);
    } finally {
      await first?.dispose();
      await second?.dispose();
    }
  });
});
