import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEntry, ChangePage } from '../changes/change-feed.js';
import { bodyOf } from '../hooks/hook-dispatcher.js';
import { request } from '../test-support/api-scenario.js';
import { pngImage } from '../test-support/sample-images.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The change feed over real HTTP (both engines): every row write and content-type change is one
 * entry, oldest first, recorded in the write's transaction; pages resume from any cursor without
 * gaps or repeats; a cursor this database never gave is a 400, one older than the retention a 410;
 * type limits of tokens hold (media changes only credentials without one see); build hooks' events
 * carry the cursor of their change.
 */

let server: TestServer;
let as: Credentials;

async function ok(method: string, url: string, json?: unknown, headers = as.admin) {
  const { response, body, text } = await request(server, method, url, { json, headers });
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

async function feed(query = '', headers = as.admin, on = server): Promise<ChangePage> {
  const { response, body, text } = await request(on, 'GET', `/changes${query}`, { headers });
  expect(response.status, text).toBe(200);
  return body;
}

/** Every change after `since`, read `limit` at a time. */
async function readAll(since = '0', limit = 1000, headers = as.admin, on = server): Promise<ChangeEntry[]> {
  const all: ChangeEntry[] = [];
  for (let cursor = since; ; ) {
    const page = await feed(`?since=${encodeURIComponent(cursor)}&limit=${limit}`, headers, on);
    all.push(...page.changes);
    if (page.changes.length === 0) {
      expect(page.next).toBe(cursor);
      return all;
    }
    expect(page.next).toBe(page.changes[page.changes.length - 1].cursor);
    cursor = page.next;
  }
}

const summary = (changes: ChangeEntry[]) => changes.map((change) => `${change.action} ${change.type}/${change.id}`);

// Accounts hash their passwords, which takes a while on a busy machine.
beforeAll(async () => {
  server = await startTestServer({ hooks: { pollMs: 0 } });
  as = await makeTeam(server);
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

describe('GET /api/changes', () => {
  let newsId: string;

  it('lists each row write once, oldest first, with who and when', async () => {
    const before = await readAll();
    const created = await ok('POST', '/cms/news', newsBody({ title: 'Feed first', status: 'draft' }));
    newsId = created.id;
    await ok('PUT', `/cms/news/${newsId}`, { title: 'Feed second' }, as.editor);
    await ok('DELETE', `/cms/news/${newsId}`);
    await ok('POST', `/cms/news/trash/${newsId}/restore`);
    const after = await readAll(before.length > 0 ? before[before.length - 1].cursor : '0');
    expect(summary(after)).toEqual([
      `create news/${newsId}`,
      `update news/${newsId}`,
      `delete news/${newsId}`,
      `restore news/${newsId}`,
    ]);
    expect(after.map((change) => change.by)).toEqual(['ada', 'edna', 'ada', 'ada']);
    for (const change of after) {
      expect(change.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(change).not.toHaveProperty('locales');
    }
    expect(new Set(after.map((change) => change.cursor)).size).toBe(after.length);
  });

  it('lists content-type changes as type_change of the table', async () => {
    const columns = [{ name: 'name', label: 'Name', type: 'text', required: true }];
    await ok('POST', '/cms-content', { title: 'Feed Authors', slug: 'feed-authors', columns });
    await ok('PUT', '/cms-content/feed-authors', { title: 'Feed Writers' });
    const { table } = await ok('GET', '/cms-content/feed-authors');
    await ok('POST', `/cms/${table}`, { name: 'Ursula' });
    await ok('DELETE', '/cms-content/feed-authors?force=true');
    const tail = (await readAll()).slice(-4);
    expect(tail.map((change) => change.action)).toEqual(['type_change', 'type_change', 'create', 'type_change']);
    expect(tail[0]).toMatchObject({ type: table, id: table, by: 'ada' });
  });

  it('lists an upload as a media change of its path, which a type-limited token does not see', async () => {
    const before = await readAll();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'dot.png');
    const response = await fetch(`${server.api}/uploads`, { method: 'POST', body: form, headers: as.admin_token });
    expect(response.status).toBe(201);
    const { path } = (await response.json()) as { path: string };
    const after = await readAll(before[before.length - 1].cursor);
    expect(after).toEqual([expect.objectContaining({ type: 'media', id: path, action: 'media', by: 'ci' })]);
    expect(after[0]).not.toHaveProperty('locales');
    // Credentials without a type limit see it, and may ask for it by name; a limited one sees none.
    expect(await readAll('0', 1000, as.viewer_token)).toContainEqual(after[0]);
    expect((await feed('?types=media&limit=1000')).changes).toEqual(after);
    expect(await readAll('0', 1000, as.news_token)).not.toContainEqual(after[0]);
    expect((await feed('?types=media,news&limit=1000', as.news_token)).changes).not.toContainEqual(after[0]);
  });

  it('pages through the same changes at any page size, and resumes after any cursor', async () => {
    const all = await readAll();
    expect(all.length).toBeGreaterThanOrEqual(8);
    expect(await readAll('0', 3)).toEqual(all);
    expect(await readAll('0', 1)).toEqual(all);
    for (const at of [0, 3, all.length - 1]) expect(await readAll(all[at].cursor)).toEqual(all.slice(at + 1));
    const page = await feed('?limit=2');
    expect(page.changes).toEqual(all.slice(0, 2));
    const defaultPage = await feed('');
    expect(defaultPage.changes).toEqual(all.slice(0, 100));
  });

  it('answers a cursor this database never gave with 400 bad_cursor', async () => {
    const all = await readAll();
    const last = all[all.length - 1].cursor;
    const beyond = Buffer.from(
      Buffer.from(last, 'base64url')
        .toString('utf8')
        .replace(/\d+$/, (id) => String(Number(id) + 1000)),
    ).toString('base64url');
    for (const cursor of ['nonsense!', 'MQ', beyond, `${last}A`, '-1']) {
      const { response, body } = await request(server, 'GET', `/changes?since=${encodeURIComponent(cursor)}`, {
        headers: as.admin,
      });
      expect(response.status, cursor).toBe(400);
      expect(body.error.code, cursor).toBe('bad_cursor');
    }
  });

  it('refuses a bad limit and parameters it does not take', async () => {
    for (const query of ['?limit=0', '?limit=1001', '?limit=ten', '?since=0&page=2', '?since=0&since=0']) {
      const { response, body } = await request(server, 'GET', `/changes${query}`, { headers: as.admin });
      expect(response.status, query).toBe(400);
      expect(body.error.code, query).toBe('bad_request');
    }
    expect((await feed('?limit=1000')).changes.length).toBeGreaterThan(0);
  });

  it('is read by every role, and a token limited to some types sees only theirs', async () => {
    await ok('POST', '/cms/categories', { title: 'Feed category' });
    const all = await readAll();
    expect(await readAll('0', 1000, as.viewer)).toEqual(all);
    expect(await readAll('0', 1000, as.viewer_token)).toEqual(all);
    const newsOnly = all.filter((change) => change.type === 'news');
    expect(newsOnly.length).toBeGreaterThan(0);
    expect(await readAll('0', 1000, as.news_token)).toEqual(newsOnly);
    // ?types= narrows, by table or slug; it never widens a limited token's view.
    expect(await readAll('0', 1000, as.admin).then((changes) => changes.length)).toBe(all.length);
    expect((await feed('?types=news&limit=1000')).changes).toEqual(newsOnly);
    expect((await feed('?types=categories&limit=1000', as.news_token)).changes).toEqual([]);
    expect((await feed('?types=news,categories&limit=1000', as.news_token)).changes).toEqual(newsOnly);
    const { response } = await request(server, 'GET', '/changes', { headers: as.none });
    expect(response.status).toBe(401);
  });

  it('refuses writes to the feed', async () => {
    const { response, body } = await request(server, 'POST', '/changes', { json: {}, headers: as.admin });
    expect(response.status).toBe(405);
    expect(body.error.code).toBe('method_not_allowed');
  });

  it('records nothing for a write that fails', async () => {
    const before = await readAll();
    const { response } = await request(server, 'POST', '/cms/news', {
      json: { status: 'published' },
      headers: as.admin,
    });
    expect(response.status).toBe(400);
    expect(await readAll()).toEqual(before);
  });
});

describe('build hooks', () => {
  it("queue each event with its change's cursor", async () => {
    const hook = await ok('POST', '/hooks', { url: 'http://192.0.2.1:9/build', content_types: ['news'] });
    const created = await ok('POST', '/cms/news', newsBody({ title: 'Hooked', status: 'published' }));
    const change = (await readAll()).find((entry) => entry.id === created.id && entry.action === 'create');
    expect(change).toBeDefined();
    const { rows } = await sql<{ cursor: string | null }>`select cursor from quire_hook_outbox
      where hook_id = ${hook.id} and row_id = ${created.id}`.execute(server.database.db);
    expect(rows.map((row) => row.cursor)).toEqual([change?.cursor]);
    // The delivery's body carries it, on the newest event and on each one.
    const body = bodyOf([
      {
        id: 1,
        hook_id: hook.id,
        table_name: 'news',
        row_id: created.id,
        action: 'create',
        at: '2026-01-01 00:00:00.000000',
        changed_by: 'ada',
        due_at: '2026-01-01 00:00:02.000000',
        cursor: rows[0].cursor,
        locales: null,
      },
    ]);
    expect(body.cursor).toBe(change?.cursor);
    expect(body.events[0].cursor).toBe(change?.cursor);
  });
});

describe('retention', () => {
  it('purges changes older than the retention; a cursor from before them is a 410', async () => {
    let clock = new Date('2026-03-01T12:00:00Z');
    const first = await startTestServer({ changes: { days: 30, now: () => clock } });
    let reopened: TestServer | undefined;
    try {
      const headers = {};
      const write = async (on: TestServer, title: string) => {
        const { response, text } = await request(on, 'POST', '/cms/news', { json: newsBody({ title }), headers });
        expect(response.status, text).toBe(201);
      };
      await write(first, 'Old one');
      await write(first, 'Old two');
      const old = await readAll('0', 1000, headers, first);
      expect(old).toHaveLength(2);
      await first.stop();
      clock = new Date('2026-03-20T12:00:00Z');
      reopened = await startTestServer({ ...reopenOptions(first), changes: { days: 30, now: () => clock } });
      await write(reopened, 'Newer');
      const kept = await readAll('0', 1000, headers, reopened);
      expect(kept.slice(0, 2)).toEqual(old);
      await reopened.stop();
      clock = new Date('2026-04-05T12:00:00Z');
      reopened = await startTestServer({ ...reopenOptions(first), changes: { days: 30, now: () => clock } });
      // The purge ran on start: what was kept from before the retention is gone.
      const left = await readAll('0', 1000, headers, reopened);
      expect(left).toEqual(kept.slice(2));
      const expired = await request(reopened, 'GET', `/changes?since=${old[0].cursor}`, { headers });
      expect(expired.response.status).toBe(410);
      expect(expired.body.error.code).toBe('cursor_expired');
      expect(expired.body.error.message).toMatch(/read everything again/);
      // The last purged change's cursor lost nothing: it resumes.
      expect(await readAll(old[1].cursor, 1000, headers, reopened)).toEqual(left);
    } finally {
      await reopened?.dispose();
      await first.dispose();
    }
  });
});
