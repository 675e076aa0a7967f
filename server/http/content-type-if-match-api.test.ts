import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Conditional content-type changes: a type's create and change answer with its ETag; `PUT` and
 * `DELETE` of `/cms-content/:slug` with `If-Match` change it only while it is that version, else a
 * 412 `stale_write` with the type as it is now, its tag and its last change. Runs on SQLite and,
 * in `server-pg`, PostgreSQL.
 */

let server: TestServer;

const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  callJson(server, method, path, body, headers);

const COLUMNS = [{ name: 'title', label: 'Title', type: 'text', required: true }];

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server?.dispose();
});

describe('If-Match on content types', () => {
  it('changes a type only over the version its tag names; a stale tag changes nothing', async () => {
    const made = await call('POST', '/cms-content', { title: 'Events', columns: COLUMNS });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const opened = made.etag as string;
    expect(opened).toMatch(/^"[0-9a-f]{32}"$/);

    const first = await call(
      'PUT',
      '/cms-content/events',
      { title: 'Happenings', columns: COLUMNS },
      { 'if-match': opened },
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.etag).not.toBe(opened);

    const stale = await call('PUT', '/cms-content/events', { title: 'Mine', columns: COLUMNS }, { 'if-match': opened });
    expect(stale.status).toBe(412);
    expect(stale.body.error).toMatchObject({
      code: 'stale_write',
      current: { slug: 'events', title: 'Happenings' },
      etag: first.etag,
      last_change: { action: 'update', by: 'tester' },
    });
    expect((await call('DELETE', '/cms-content/events', undefined, { 'if-match': opened })).status).toBe(412);
    expect((await call('GET', '/cms-content/events')).body.title).toBe('Happenings');

    const again = await call(
      'PUT',
      '/cms-content/events',
      { title: 'Gatherings', columns: COLUMNS },
      { 'if-match': first.etag as string },
    );
    expect(again.status).toBe(200);
    expect((await call('DELETE', '/cms-content/events', undefined, { 'if-match': again.etag as string })).status).toBe(
      200,
    );
    const gone = await call('DELETE', '/cms-content/events', undefined, { 'if-match': '*' });
    expect(gone.status).toBe(412);
    expect(gone.body.error).toMatchObject({ code: 'stale_write', current: null, etag: null });
    expect((await call('PUT', '/cms-content/events', { title: 'x' }, { 'if-match': 'garbage' })).status).toBe(400);
  });

  it('lists each type with its version, the tag its change takes and a change moves on', async () => {
    const made = await call('POST', '/cms-content', { title: 'Venues', columns: COLUMNS });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const listed = async () =>
      (await call('GET', '/cms-content')).body.content_types.find((type: { slug: string }) => type.slug === 'venues');
    expect((await listed()).version).toBe(made.etag);

    const changed = await call(
      'PUT',
      '/cms-content/venues',
      { title: 'Places', columns: COLUMNS },
      { 'if-match': (await listed()).version },
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const now = await listed();
    expect(now.version).toBe(changed.etag);
    expect(now.version).not.toBe(made.etag);
    const { version: _version, ...described } = now;
    expect(described).toEqual(changed.body);
    // A list entry sent back as it is changes nothing and is not refused for its version.
    expect((await call('PUT', '/cms-content/venues', now)).status).toBe(200);
    expect((await listed()).version).toBe(now.version);
    expect((await call('DELETE', '/cms-content/venues', undefined, { 'if-match': now.version })).status).toBe(200);
  });
});
