import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionListResponse, RevisionSummary } from '../../common/revision-contract.js';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Revisions and the trash over real HTTP: every row write records a revision in its transaction (a failed one
 * records nothing), a row's history reads newest first with paging, a restore writes a snapshot
 * back as a new change (checked like any write), and the trash lists deleted rows, brings them back
 * with their ids and is purged after its retention (a clock the test moves).
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

/** All revisions in the database, counted past the API (a refused write must add none). */
async function revisionCount(on: TestServer = server): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from quire_revisions`.execute(on.database.db);
  return Number(rows[0].n);
}

async function ok(method: string, url: string, json?: unknown, on: TestServer = server) {
  const { response, body, text } = await request(on, method, url, json === undefined ? {} : { json });
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

async function history(table: string, id: string, query = '', on: TestServer = server): Promise<RevisionListResponse> {
  return ok('GET', `/cms/${table}/${id}/revisions${query}`, undefined, on);
}

const actions = (revisions: RevisionSummary[]) => revisions.map((revision) => revision.action);

describe('revisions of a row', () => {
  it('records create, update and delete with the changed fields, who and when, newest first', async () => {
    const created = await ok('POST', '/cms/news', newsBody({ title: 'First words', status: 'draft' }));
    const id = created.id as string;
    await ok('PUT', `/cms/news/${id}`, { status: 'published' });
    await ok('PUT', `/cms/news/${id}`, { title: 'Second words', meta: { title: 'SEO' } });

    const list = await history('news', id);
    expect(list.total).toBe(3);
    expect(actions(list.revisions)).toEqual(['update', 'update', 'create']);
    expect(list.revisions.map((revision) => revision.fields)).toEqual([
      ['title', 'meta'],
      ['status'],
      ['title', 'slug', 'status', 'published_at'],
    ]);
    for (const revision of list.revisions) {
      expect(revision.by).toBe('tester');
      expect(revision.at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/);
    }
    // Ids number the revisions in the order they were written.
    const ids = list.revisions.map((revision) => revision.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);

    const first = await ok('GET', `/cms/news/${id}/revisions/${ids[2]}`);
    expect(first.row).toMatchObject({ id, title: 'First words', slug: 'first-words', status: 'draft', meta: null });
    expect(first.dropped).toEqual([]);
    expect(first.exists).toBe(true);

    await ok('DELETE', `/cms/news/${id}`);
    const after = await history('news', id);
    expect(actions(after.revisions)).toEqual(['delete', 'update', 'update', 'create']);
    expect(after.revisions[0].fields).toEqual([]);
    // A delete's snapshot is the row as it was; it stays readable at the same address.
    const deleted = await ok('GET', `/cms/news/${id}/revisions/${after.revisions[0].id}`);
    expect(deleted.row).toMatchObject({ id, title: 'Second words', status: 'published', meta: { title: 'SEO' } });
    expect(deleted.exists).toBe(false);
  });

  it('records nothing for a write that fails (400, 409, 404)', async () => {
    const a = await ok('POST', '/cms/news', newsBody({ title: 'Taken slug' }));
    const b = await ok('POST', '/cms/news', newsBody({ title: 'Other row' }));
    const before = await revisionCount();
    const refused = [
      await request(server, 'POST', '/cms/news', { json: { title: 'No status' } }),
      await request(server, 'PUT', `/cms/news/${b.id}`, { json: { status: 'not-an-option' } }),
      await request(server, 'PUT', `/cms/news/${b.id}`, { json: { slug: 'taken-slug' } }),
      await request(server, 'POST', `/cms/news/${a.id}`, { json: newsBody() }),
      await request(server, 'PUT', '/cms/news/no-such-row', { json: { title: 'x' } }),
    ];
    expect(refused.map(({ response }) => response.status)).toEqual([400, 400, 409, 409, 404]);
    expect(await revisionCount()).toBe(before);
    expect((await history('news', b.id)).total).toBe(1);
  });

  it('pages newest first with limit and offset, and says how many there are', async () => {
    const { id } = await ok('POST', '/cms/news', newsBody({ title: 'Paged 0' }));
    for (let n = 1; n <= 24; n++) await ok('PATCH', `/cms/news/${id}`, { title: `Paged ${n}` });
    const all = await history('news', id, '?limit=100');
    expect(all.total).toBe(25);
    expect(all.revisions).toHaveLength(25);
    const page = await history('news', id, '?limit=10&offset=20');
    expect(page).toMatchObject({ total: 25, limit: 10, offset: 20 });
    expect(page.revisions.map((revision) => revision.id)).toEqual(all.revisions.slice(20).map((r) => r.id));
    expect((await history('news', id)).revisions).toHaveLength(20);
    for (const query of ['?limit=0', '?limit=101', '?offset=-1', '?limit=ten']) {
      const { response } = await request(server, 'GET', `/cms/news/${id}/revisions${query}`);
      expect(response.status, query).toBe(400);
    }
  });

  it('answers 404 for an unknown row, revision, or a revision of another row', async () => {
    const a = await ok('POST', '/cms/news', newsBody({ title: 'Row A' }));
    const b = await ok('POST', '/cms/news', newsBody({ title: 'Row B' }));
    const ofA = (await history('news', a.id)).revisions[0].id;
    for (const url of [
      '/cms/news/never-was/revisions',
      `/cms/news/${a.id}/revisions/999999`,
      `/cms/news/${a.id}/revisions/abc`,
      `/cms/news/${b.id}/revisions/${ofA}`,
      `/cms/nothing/${a.id}/revisions`,
    ]) {
      const { response, body } = await request(server, 'GET', url);
      expect(response.status, url).toBe(404);
      expect(body.error.code).toBe('not_found');
    }
    const { response } = await request(server, 'POST', `/cms/news/${b.id}/revisions/${ofA}/restore`);
    expect(response.status).toBe(404);
  });
});

describe('restoring a revision', () => {
  it('writes the snapshot back as a new change, itself a revision', async () => {
    const { id } = await ok('POST', '/cms/articles', {
      title: 'Restore me',
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
      tags: ['a', 'b'],
      body: 'One two three',
      meta_title: 'Old SEO',
    });
    await ok('PUT', `/cms/articles/${id}`, {
      title: 'Changed',
      tags: ['c'],
      body: 'Four',
      meta: { title: 'New SEO', description: 'd' },
    });
    const [, created] = (await history('articles', id)).revisions;
    const restored = await ok('POST', `/cms/articles/${id}/revisions/${created.id}/restore`);
    expect(restored.row).toMatchObject({
      id,
      title: 'Restore me',
      slug: 'restore-me',
      tags: ['a', 'b'],
      body: 'One two three',
      meta: { title: 'Old SEO', description: '', keywords: '' },
      updated_by: 'tester',
    });
    expect(restored.dropped).toEqual([]);
    expect(restored.revision).toMatchObject({ action: 'restore', by: 'tester' });
    // The slug stayed "restore-me" when the title changed, so the restore does not change it.
    expect(restored.revision.fields).toEqual(['title', 'body', 'tags', 'meta']);
    const read = await ok('GET', `/cms/articles/${id}`);
    expect(read.rows[0]).toMatchObject({ title: 'Restore me', tags: ['a', 'b'] });
    expect(actions((await history('articles', id)).revisions)).toEqual(['restore', 'update', 'create']);
  });

  it('refuses a slug another row took since with a 409, recording nothing', async () => {
    const { id } = await ok('POST', '/cms/news', newsBody({ title: 'Wanted slug' }));
    await ok('PUT', `/cms/news/${id}`, { slug: 'moved-away' });
    await ok('POST', '/cms/news', newsBody({ title: 'Wanted slug' }));
    const [, created] = (await history('news', id)).revisions;
    const before = await revisionCount();
    const { response, body } = await request(server, 'POST', `/cms/news/${id}/revisions/${created.id}/restore`);
    expect(response.status).toBe(409);
    expect(body.error.problems).toEqual({ slug: { code: 'taken' } });
    expect(await revisionCount()).toBe(before);
    expect((await ok('GET', `/cms/news/${id}`)).rows[0].slug).toBe('moved-away');
  });

  it('refuses to point at a related row that is gone, saying which', async () => {
    const category = await ok('POST', '/cms/categories', { title: 'Gone soon' });
    const { id } = await ok('POST', '/cms/articles', {
      title: 'Related',
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
      category: category.id,
    });
    await ok('PUT', `/cms/articles/${id}`, { category: null });
    await ok('DELETE', `/cms/categories/${category.id}`);
    const [, created] = (await history('articles', id)).revisions;
    // The snapshot reads with the relation as it is now: gone.
    expect((await ok('GET', `/cms/articles/${id}/revisions/${created.id}`)).row.category).toBeNull();
    const before = await revisionCount();
    const { response, body } = await request(server, 'POST', `/cms/articles/${id}/revisions/${created.id}/restore`);
    expect(response.status).toBe(400);
    expect(body.error.problems.category).toBeDefined();
    expect(body.error.message).toMatch(/category/);
    expect(await revisionCount()).toBe(before);
  });

  it('drops the fields the type no longer has and names them; the type change is logged', async () => {
    const columns = [
      { name: 'name', label: 'Name', type: 'text', required: true },
      { name: 'subtitle', label: 'Subtitle', type: 'text', required: false },
    ];
    const made = await request(server, 'POST', '/cms-content', { json: { title: 'Shows', columns } });
    expect(made.response.status, made.text).toBe(201);
    const { id } = await ok('POST', '/cms/shows', { name: 'Opening night', subtitle: 'Act one' });
    await ok('PUT', `/cms/shows/${id}`, { name: 'Closing night', subtitle: 'Act two' });
    const changed = await request(server, 'PUT', '/cms-content/shows', {
      json: { columns: [{ ...columns[0], label: 'Show name' }] },
    });
    expect(changed.response.status, changed.text).toBe(200);
    const [, created] = (await history('shows', id)).revisions;
    const read = await ok('GET', `/cms/shows/${id}/revisions/${created.id}`);
    expect(read.dropped).toEqual(['subtitle']);
    expect(read.row).toEqual(expect.objectContaining({ name: 'Opening night' }));
    expect(read.row).not.toHaveProperty('subtitle');
    const restored = await ok('POST', `/cms/shows/${id}/revisions/${created.id}/restore`);
    expect(restored.dropped).toEqual(['subtitle']);
    expect(restored.row.name).toBe('Opening night');

    const log = await ok('GET', '/cms-content-changes?type=shows');
    expect(log.total).toBe(2);
    expect(log.changes.map((change: { action: string }) => change.action)).toEqual(['update', 'create']);
    expect(log.changes[0]).toMatchObject({
      type: 'shows',
      by: 'tester',
      detail: { dropped: ['subtitle'], changed: ['name'] },
    });
    expect(log.changes[1].detail).toMatchObject({ title: { from: null, to: 'Shows' }, added: ['name', 'subtitle'] });
  });
});

describe('the trash', () => {
  it('lists deleted rows and brings one back with its id, creation and history', async () => {
    const row = await ok('POST', '/cms/news', newsBody({ title: 'Binned' }));
    await ok('PUT', `/cms/news/${row.id}`, { status: 'published' });
    await ok('DELETE', `/cms/news/${row.id}`);
    // `/cms/news/trash` is the trash, not a row called "trash".
    const trash = await ok('GET', '/cms/news/trash');
    expect(trash.retention_days).toBe(30);
    const entry = trash.rows.find((each: { id: string }) => each.id === row.id);
    expect(entry).toMatchObject({ id: row.id, title: 'Binned', deleted_by: 'tester' });
    expect(trash.total).toBe(trash.rows.length);
    expect((await request(server, 'GET', `/cms/news/${row.id}`)).response.status).toBe(404);

    const restored = await ok('POST', `/cms/news/trash/${row.id}/restore`);
    expect(restored.row).toMatchObject({
      id: row.id,
      title: 'Binned',
      status: 'published',
      created_at: row.rows[0].created_at,
    });
    expect(restored.revision.action).toBe('restore');
    expect((await ok('GET', `/cms/news/${row.id}`)).rows[0].title).toBe('Binned');
    const after = await ok('GET', '/cms/news/trash');
    expect(after.rows.map((each: { id: string }) => each.id)).not.toContain(row.id);
    expect(actions((await history('news', row.id)).revisions)).toEqual(['restore', 'delete', 'update', 'create']);
    // Not in the trash any more: a second restore from it is a 404.
    expect((await request(server, 'POST', `/cms/news/trash/${row.id}/restore`)).response.status).toBe(404);
  });

  it('brings a deleted row back from any of its revisions, the same as from the trash', async () => {
    const row = await ok('POST', '/cms/news', newsBody({ title: 'Early version' }));
    await ok('PUT', `/cms/news/${row.id}`, { title: 'Late version' });
    await ok('DELETE', `/cms/news/${row.id}`);
    const created = (await history('news', row.id)).revisions.at(-1) as RevisionSummary;
    const restored = await ok('POST', `/cms/news/${row.id}/revisions/${created.id}/restore`);
    expect(restored.row).toMatchObject({ id: row.id, title: 'Early version', slug: 'early-version' });
    const trash = await ok('GET', '/cms/news/trash');
    expect(trash.rows.map((each: { id: string }) => each.id)).not.toContain(row.id);
  });
});

describe('retention, with a clock the test moves', () => {
  const DAY = 24 * 60 * 60 * 1000;
  let clock = Date.parse('2026-03-01T12:00:00Z');
  let timed: TestServer;

  beforeAll(async () => {
    timed = await startTestServer({ revisions: { now: () => new Date(clock), trashDays: 2, keepRevisions: 3 } });
  });
  afterAll(async () => {
    await timed?.dispose();
  });

  it('keeps a row within its retention in the trash, and purges it after', async () => {
    const kept = await ok('POST', '/cms/news', newsBody({ title: 'Stays' }), timed);
    const early = await ok('POST', '/cms/news', newsBody({ title: 'Deleted early' }), timed);
    const late = await ok('POST', '/cms/news', newsBody({ title: 'Deleted late' }), timed);
    await ok('DELETE', `/cms/news/${early.id}`, undefined, timed);
    clock += 1 * DAY;
    await ok('DELETE', `/cms/news/${late.id}`, undefined, timed);
    let trash = await ok('GET', '/cms/news/trash', undefined, timed);
    expect(trash.rows.map((each: { id: string }) => each.id)).toEqual([late.id, early.id]);
    expect(trash.rows[1]).toMatchObject({
      deleted_at: '2026-03-01 12:00:00.000000',
      purge_at: '2026-03-03 12:00:00.000000',
    });

    clock += 1.5 * DAY;
    trash = await ok('GET', '/cms/news/trash', undefined, timed);
    expect(trash.rows.map((each: { id: string }) => each.id)).toEqual([late.id]);
    expect((await request(timed, 'POST', `/cms/news/trash/${early.id}/restore`)).response.status).toBe(404);

    const purged = await timed.services.revisions?.purge();
    expect(purged).toEqual({ trash: 2, revisions: 0 });
    expect((await request(timed, 'GET', `/cms/news/${early.id}/revisions`)).response.status).toBe(404);
    expect((await history('news', late.id, '', timed)).total).toBe(2);
    // A row that exists keeps its revisions, however old.
    expect((await history('news', kept.id, '', timed)).total).toBe(1);
  });

  it('keeps at most --keep-revisions per row, always the newest', async () => {
    const { id } = await ok('POST', '/cms/news', newsBody({ title: 'v0' }), timed);
    for (let n = 1; n <= 5; n++) await ok('PATCH', `/cms/news/${id}`, { title: `v${n}` }, timed);
    const list = await history('news', id, '', timed);
    expect(list.total).toBe(3);
    const newest = await ok('GET', `/cms/news/${id}/revisions/${list.revisions[0].id}`, undefined, timed);
    expect(newest.row.title).toBe('v5');
  });
});
