import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Conditional row writes: `PUT`, `PATCH` and `DELETE` with `If-Match` write only over the version
 * the tag names (strong comparison, `*` for "exists"), a stale one gets a 412 `stale_write` with the
 * row as it is now, its tag and its last change, and nothing is written. A single row's tag follows
 * that row alone, and a write's answer carries the tag the next read gives. Runs on SQLite and, in
 * `server-pg`, PostgreSQL.
 */

let server: TestServer;

const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  callJson(server, method, path, body, headers);

async function newRow(title: string): Promise<string> {
  const { status, body } = await call('POST', '/cms/news', {
    title,
    status: 'draft',
    published_at: '2025-01-01 10:00:00',
  });
  expect(status, JSON.stringify(body)).toBe(201);
  return body.id;
}

/** The row's read: its tag and its title. */
async function read(id: string): Promise<{ etag: string; title: string }> {
  const { status, etag, body } = await call('GET', `/cms/news/${id}`);
  expect(status).toBe(200);
  return { etag: etag as string, title: body.rows[0].title };
}

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.dispose();
});

describe('a single row’s tag follows the row alone', () => {
  it('writes and creates of other rows of the type leave it, and If-None-Match still gets a 304', async () => {
    const [mine, other] = [await newRow('Mine'), await newRow('Other')];
    const before = (await read(mine)).etag;
    expect((await call('PATCH', `/cms/news/${other}`, { title: 'Other, changed' })).status).toBe(200);
    await newRow('A third');
    expect((await read(mine)).etag).toBe(before);
    expect((await call('GET', `/cms/news/${mine}`, undefined, { 'if-none-match': before })).status).toBe(304);
    expect((await call('PATCH', `/cms/news/${mine}`, { title: 'Mine, changed' })).status).toBe(200);
    expect((await read(mine)).etag).not.toBe(before);
  });
});

describe('If-Match on updates', () => {
  it('a fresh tag writes, and the answer’s tag is the next read’s, so a second save goes through', async () => {
    const id = await newRow('Fresh');
    const first = await call(
      'PATCH',
      `/cms/news/${id}`,
      { title: 'Fresh, once' },
      { 'if-match': (await read(id)).etag },
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.etag).toBe((await read(id)).etag);
    const second = await call(
      'PUT',
      `/cms/news/${id}`,
      { title: 'Fresh, twice' },
      { 'if-match': first.etag as string },
    );
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(await read(id)).toEqual({ etag: second.etag, title: 'Fresh, twice' });
  });

  it('a stale tag is a 412 with the row as it is now, its tag and who changed it; nothing is written', async () => {
    const id = await newRow('Shared');
    const opened = (await read(id)).etag;
    expect((await call('PATCH', `/cms/news/${id}`, { title: 'Shared, by the other' })).status).toBe(200);
    for (const method of ['PUT', 'PATCH']) {
      const stale = await call(method, `/cms/news/${id}`, { title: 'Shared, mine' }, { 'if-match': opened });
      expect(stale.status).toBe(412);
      const now = await read(id);
      expect(now.title).toBe('Shared, by the other');
      expect(stale.body.error).toMatchObject({
        status: 412,
        code: 'stale_write',
        current: { id, title: 'Shared, by the other' },
        etag: now.etag,
        last_change: { action: 'update', by: 'tester', fields: ['title'] },
      });
      expect(stale.body.error.last_change.at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
    }
  });

  it('`*` writes over any version of a row that exists, and is a 412 for one that does not', async () => {
    const id = await newRow('Any');
    expect((await call('PATCH', `/cms/news/${id}`, { title: 'Any, changed' }, { 'if-match': '*' })).status).toBe(200);
    const missing = await call('PATCH', '/cms/news/no-such-row', { title: 'x' }, { 'if-match': '*' });
    expect(missing.status).toBe(412);
    expect(missing.body.error).toMatchObject({ code: 'stale_write', current: null, etag: null, last_change: null });
    // Without If-Match nothing changes: a missing row is a 404, and a write goes through.
    expect((await call('PATCH', '/cms/news/no-such-row', { title: 'x' })).status).toBe(404);
    expect((await call('PATCH', '/cms/nothing/1', { title: 'x' }, { 'if-match': '*' })).status).toBe(404);
  });
});

describe('If-Match on deletes', () => {
  it('a stale tag keeps the row; a fresh one deletes it; then the row is gone, with who deleted it', async () => {
    const id = await newRow('To delete');
    const opened = (await read(id)).etag;
    expect((await call('PATCH', `/cms/news/${id}`, { title: 'To delete, changed' })).status).toBe(200);
    const stale = await call('DELETE', `/cms/news/${id}`, undefined, { 'if-match': opened });
    expect(stale.status).toBe(412);
    expect(stale.body.error.current.title).toBe('To delete, changed');
    const deleted = await call('DELETE', `/cms/news/${id}`, undefined, { 'if-match': (await read(id)).etag });
    expect(deleted.status).toBe(200);
    const again = await call('PATCH', `/cms/news/${id}`, { title: 'Back' }, { 'if-match': opened });
    expect(again.status).toBe(412);
    expect(again.body.error).toMatchObject({
      current: null,
      etag: null,
      last_change: { action: 'delete', by: 'tester' },
    });
  });
});

describe('hostile If-Match values (RFC 9110)', () => {
  it('weak tags never match, lists match by any member, malformed values are a 400; nothing is written', async () => {
    const id = await newRow('Hostile');
    const { etag } = await read(id);
    const refused: [string, number][] = [
      [`W/${etag}`, 412],
      ['"nope"', 412],
      ['', 412],
      [' , ,', 412],
      [etag.slice(0, -1), 400],
      ['abc', 400],
      [`*, ${etag}`, 400],
      [`${etag} junk`, 400],
      ['"a"b"', 400],
      ['"a\tb"', 400],
    ];
    for (const [value, status] of refused) {
      const answer = await call('PATCH', `/cms/news/${id}`, { title: 'Overwritten' }, { 'if-match': value });
      expect([value, answer.status, answer.body.error.code]).toEqual([
        value,
        status,
        status === 412 ? 'stale_write' : 'bad_request',
      ]);
    }
    expect(await read(id)).toEqual({ etag, title: 'Hostile' });
    const listed = await call(
      'PATCH',
      `/cms/news/${id}`,
      { title: 'Listed' },
      { 'if-match': `"old", W/${etag},${etag}` },
    );
    expect(listed.status).toBe(200);
  });
});

describe('the check is made inside each write’s transaction', () => {
  it('of writes sent at once with one fresh tag, exactly one is written; the others are 412s', async () => {
    const id = await newRow('Raced');
    const { etag } = await read(id);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => call('PATCH', `/cms/news/${id}`, { title: `Raced ${n}` }, { 'if-match': etag })),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412]);
    const winner = answers.find((answer) => answer.status === 200);
    expect((await read(id)).title).toBe(winner?.body.title);
  });

  it('a stale write among writes committed together fails alone', async () => {
    const ids = await Promise.all(['B1', 'B2', 'B3', 'B4'].map(newRow));
    const tags = await Promise.all(ids.map(async (id) => (await read(id)).etag));
    const stale = '"0000000000000000000000000000000a"';
    const answers = await Promise.all(
      ids.map((id, i) =>
        call('PATCH', `/cms/news/${id}`, { title: `Batch ${i}` }, { 'if-match': i === 2 ? stale : tags[i] }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 412, 200]);
    expect((await Promise.all(ids.map(read))).map((row) => row.title)).toEqual(['Batch 0', 'Batch 1', 'B3', 'Batch 3']);
  });
});
