// Engine: PostgreSQL only: a write on one server reaching the event streams of another sharing its
// database, which one SQLite file served by one server never asks.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventStreamClient, openEventStream } from '../test-support/event-stream-client.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import type { ChangeEntry } from './change-feed.js';

/**
 * Event streams of two servers on one PostgreSQL database: a write on one reaches streams on the
 * other; while both write at once, a stream on each sees every change of the feed once, in the
 * feed's order; a stream dropped and resumed with `Last-Event-ID` on the other server loses nothing.
 */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`event streams across two servers${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;
  const open: EventStreamClient[] = [];

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    for (const client of open) client.close();
    await Promise.all([a?.close(), b?.close()]);
  });

  async function stream(server: PostgresTestServer, headers: Record<string, string> = {}) {
    const client = await openEventStream(`${server.api}/events`, headers);
    expect(client.status).toBe(200);
    open.push(client);
    return client;
  }

  async function createNews(server: PostgresTestServer, title: string): Promise<string> {
    const { status, body } = await call(server, 'POST', '/cms/news', {
      title,
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
    });
    expect(status, JSON.stringify(body)).toBe(201);
    return String(body.id);
  }

  const changesOf = (client: EventStreamClient, count: number) =>
    client.waitFor(count).then((events) => events.map((event) => JSON.parse(event.data) as ChangeEntry));

  /** The feed after `since` to its end, read on `server`. */
  async function feedAfter(server: PostgresTestServer, since: string): Promise<ChangeEntry[]> {
    const all: ChangeEntry[] = [];
    for (let cursor = since; ; ) {
      const { status, body } = await call(server, 'GET', `/changes?since=${encodeURIComponent(cursor)}&limit=1000`);
      expect(status).toBe(200);
      if (body.changes.length === 0) return all;
      all.push(...body.changes);
      cursor = body.next;
    }
  }

  it('brings a write on one server to the streams of the other', async () => {
    const onB = await stream(b);
    const id = await createNews(a, 'Written on A');
    const [change] = await changesOf(onB, 1);
    expect(change).toMatchObject({ type: 'news', id, action: 'create' });
    onB.close();
  });

  it('gives a stream on each server every change of both, once, in the order of the feed', async () => {
    const onA = await stream(a);
    const onB = await stream(b);
    const writes: Promise<string>[] = [];
    for (let n = 0; n < 8; n++) writes.push(createNews(n % 2 === 0 ? a : b, `Both at once ${n}`));
    const ids = await Promise.all(writes);
    const feed = (await feedAfter(b, '0')).filter((change) => ids.includes(change.id));
    expect(feed).toHaveLength(ids.length);
    const [seenOnA, seenOnB] = await Promise.all([changesOf(onA, ids.length), changesOf(onB, ids.length)]);
    expect(seenOnA).toEqual(feed);
    expect(seenOnB).toEqual(feed);
    onA.close();
    onB.close();
  });

  it('resumes a dropped stream with Last-Event-ID on the other server without losing a change', async () => {
    const first = await stream(b);
    await createNews(a, 'Before the drop');
    const [seen] = await changesOf(first, 1);
    first.close();
    const missed = [await createNews(a, 'Away 1'), await createNews(b, 'Away 2'), await createNews(a, 'Away 3')];
    const resumed = await stream(a, { 'Last-Event-ID': seen.cursor });
    const changes = await changesOf(resumed, missed.length);
    expect(changes.map((change) => change.id)).toEqual(missed);
    expect(changes).toEqual(await feedAfter(b, seen.cursor));
    const later = await createNews(b, 'After');
    expect((await changesOf(resumed, missed.length + 1)).at(-1)?.id).toBe(later);
    resumed.close();
  });
});
