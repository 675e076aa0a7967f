import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import express, { Router } from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { EventHub } from '../changes/event-streams.js';
import type { ContentType } from '../content/content-type.js';
import { openEventStream } from '../test-support/event-stream-client.js';
import { expiredCursor, MemoryChangeFeed } from '../test-support/memory-change-feed.js';
import { errorMiddleware, notFoundHandler } from './error-middleware.js';
import { credentialKey, eventRoutes } from './event-routes.js';

// The route over HTTP on a feed in memory: its head, its refusals, resuming and type filters. The
// whole server's pipeline (credentials, both engines, two servers) is events-api.test.ts's.

const types = [
  { table: 'news', slug: 'news' },
  { table: 'pages', slug: 'site-pages' },
] as ContentType[];
const registry = {
  findByTable: (table: string) => types.find((type) => type.table === table),
  findBySlug: (slug: string) => types.find((type) => type.slug === slug),
};

const feed = new MemoryChangeFeed();
const hub = new EventHub({ feed, limits: { perCredential: 2 }, log: () => {} });
const servers: Server[] = [];
let base: string;

/** `/api/events` of a hub on a server of its own: its URL. */
async function serve(on: EventHub): Promise<string> {
  const app = express();
  app.set('query parser', 'simple');
  const api = Router();
  api.use(eventRoutes({ hub: on, registry, credentialHolds: async () => true }));
  api.use(notFoundHandler);
  app.use('/api', api);
  app.use(errorMiddleware({ log: () => {} }));
  const server = createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/events`;
}

beforeAll(async () => {
  base = await serve(hub);
});

afterAll(async () => {
  hub.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Waits until the hub holds `count` streams (a dropped connection is noticed on the next turn). */
async function streamsOpen(count: number, on = hub): Promise<void> {
  for (let i = 0; i < 5000 && on.size !== count; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(on.size).toBe(count);
}

it('streams changes as they commit, each with its cursor as id, unbuffered and uncached', async () => {
  const stream = await openEventStream(base);
  expect(stream.status).toBe(200);
  expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
  expect(stream.headers['cache-control']).toBe('no-cache');
  expect(stream.headers['x-accel-buffering']).toBe('no');
  expect(stream.headers['content-length']).toBeUndefined();
  const change = feed.add('news', '7');
  const [event] = await stream.waitFor(1);
  expect(event).toEqual({ id: change.cursor, event: 'change', data: JSON.stringify(change) });
  expect(stream.comments).toContain('connected');
  stream.close();
  await streamsOpen(0);
});

it('resumes after Last-Event-ID, which wins over since, without losing a change', async () => {
  const first = await openEventStream(base);
  const a = feed.add('news', 'a');
  await first.waitFor(1);
  first.close();
  const b = feed.add('pages', 'b');
  const c = feed.add('news', 'c');
  const again = await openEventStream(`${base}?since=0`, { 'Last-Event-ID': a.cursor });
  const events = await again.waitFor(2);
  expect(events.map((event) => event.id)).toEqual([b.cursor, c.cursor]);
  const bySince = await openEventStream(`${base}?since=${b.cursor}`);
  expect((await bySince.waitFor(1))[0].id).toBe(c.cursor);
  again.close();
  bySince.close();
  await streamsOpen(0);
});

it('takes only the types named, by table or slug', async () => {
  const stream = await openEventStream(`${base}?types=site-pages`);
  feed.add('news', 'skipped');
  const page = feed.add('pages', 'taken');
  const [event] = await stream.waitFor(1);
  expect(event.id).toBe(page.cursor);
  stream.close();
  await streamsOpen(0);
});

it('refuses before the stream starts, in the one error shape', async () => {
  const cases: [string, Record<string, string>, number, string][] = [
    ['?types=nope', {}, 400, 'bad_request'],
    ['?types=news&types=pages', {}, 400, 'bad_request'],
    ['?after=1', {}, 400, 'bad_request'],
    ['?since=not-a-cursor', {}, 400, 'bad_request'],
  ];
  feed.keptFrom = 1;
  cases.push(['', { 'Last-Event-ID': '0' }, 410, 'bad_request']);
  for (const [query, headers, status, code] of cases) {
    const refused = await openEventStream(`${base}${query}`, headers);
    await refused.ended;
    expect(refused.status, query).toBe(status);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refused.text()).error).toMatchObject({ status, code });
  }
  feed.keptFrom = 0;
  expect(hub.size).toBe(0);
});

it('answers a stream past the limit with a 429, and takes one again once a stream closes', async () => {
  const open = [await openEventStream(base), await openEventStream(base)];
  const refused = await openEventStream(base);
  await refused.ended;
  expect(refused.status).toBe(429);
  expect(JSON.parse(refused.text()).error).toMatchObject({
    code: 'too_many_requests',
    detail: { code: 'too_many', max: 2, of: 'event_streams_of_credential' },
  });
  open[0].close();
  await streamsOpen(1);
  const another = await openEventStream(base);
  expect(another.status).toBe(200);
  open[1].close();
  another.close();
  await streamsOpen(0);
});

it('tells a stream that its cursor expired, then ends it', async () => {
  const stream = await openEventStream(base);
  feed.failNext = expiredCursor();
  feed.add('news', 'x');
  await stream.ended;
  expect(stream.events.at(-1)?.event).toBe('error');
  expect(JSON.parse(stream.events.at(-1)?.data ?? '').error.status).toBe(410);
});

it('cuts off a reader that stops reading once its socket holds more than the bound', async () => {
  const slowFeed = new MemoryChangeFeed();
  const slowHub = new EventHub({ feed: slowFeed, maxBufferedBytes: 64 * 1024, log: () => {} });
  const url = new URL(await serve(slowHub));
  const socket = connect(Number(url.port), url.hostname);
  socket.write(`GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.once('data', () => socket.pause());
  await streamsOpen(1, slowHub);
  // Large changes, written until the socket's buffers on both sides are full and the server's grows.
  for (let i = 0; i < 400 && slowHub.size === 1; i++) {
    slowFeed.add('news', 'x'.repeat(64 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  await streamsOpen(0, slowHub);
  await closed;
  slowHub.close();
});

it('refuses other methods', async () => {
  const answer = await fetch(base, { method: 'POST' });
  expect(answer.status).toBe(405);
});

it('counts streams per session, per token and for the local user', () => {
  expect(credentialKey(null)).toBe('anonymous');
  expect(credentialKey({ via: 'local', name: 'ada', role: 'admin', types: null })).toBe('local:ada');
  expect(credentialKey({ via: 'token', name: 'build', role: 'viewer', types: null })).toBe('token:build');
  expect(credentialKey({ via: 'session', name: 'ada', role: 'admin', types: null, sessionId: 'h' })).toBe('session:h');
});
