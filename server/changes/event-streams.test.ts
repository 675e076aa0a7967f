import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expiredCursor, MemoryChangeFeed } from '../test-support/memory-change-feed.js';
import type { ChangeFeed } from './change-feed.js';
import { EventHub, type EventHubOptions, type EventSink } from './event-streams.js';

/** A socket's stand-in: what was written, and a buffer the test fills. */
class MemorySink extends EventEmitter implements EventSink {
  text = '';
  writableLength = 0;
  ended = false;
  destroyed = false;

  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  end(): void {
    this.ended = true;
    this.emit('close');
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
  /** The ids of the change events received, in order. */
  ids(): string[] {
    return [...this.text.matchAll(/^id: (.*)$/gm)].map((match) => match[1]);
  }
}

const hubs: EventHub[] = [];
afterEach(() => {
  for (const hub of hubs.splice(0)) hub.close();
  vi.useRealTimers();
});

function hubOf(feed: ChangeFeed, options: Partial<EventHubOptions> = {}): EventHub {
  const hub = new EventHub({ feed, log: () => {}, ...options });
  hubs.push(hub);
  return hub;
}

async function open(hub: EventHub, options: { credential?: string; since?: string | null; types?: string[] } = {}) {
  const sink = new MemorySink();
  const start = vi.fn();
  await hub.open({
    credential: options.credential ?? 'local',
    accepts: (type) => !options.types || options.types.includes(type),
    since: options.since ?? null,
    sink,
    start,
  });
  return { sink, start };
}

/** Waits (without a clock) until `done` holds: deliveries run on promises and timers. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(done()).toBe(true);
}

describe('EventHub', () => {
  it('fans one feed read out to every stream', async () => {
    const feed = new MemoryChangeFeed();
    feed.add('news', 'old');
    const hub = hubOf(feed);
    const streams = await Promise.all([open(hub), open(hub), open(hub)]);
    await until(() => streams.every(({ sink }) => sink.text.startsWith(': connected')));
    const readsBefore = feed.reads.length;
    feed.add('news', '1', false);
    feed.add('pages', '2');
    await until(() => streams.every(({ sink }) => sink.ids().length === 2));
    for (const { sink, start } of streams) {
      expect(start).toHaveBeenCalledOnce();
      expect(sink.ids()).toEqual(['2', '3']);
      expect(sink.text).toContain('event: change\ndata: {"cursor":"2","type":"news","id":"1"');
    }
    expect(feed.reads.length - readsBefore).toBe(1);
    // The hub reads every type once and filters itself.
    expect(feed.reads.every((query) => query.types === undefined)).toBe(true);
  });

  it('gives each stream only the types it takes, and moves it past the others', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed);
    const news = await open(hub, { types: ['news'] });
    const all = await open(hub);
    feed.add('pages', 'p1');
    feed.add('news', 'n1');
    await until(() => all.sink.ids().length === 2 && news.sink.ids().length === 1);
    expect(news.sink.ids()).toEqual(['2']);
    feed.add('pages', 'p2');
    await until(() => all.sink.ids().length === 3);
    const reads = feed.reads.length;
    feed.add('news', 'n2');
    await until(() => news.sink.ids().length === 2);
    // Both streams stood at the same cursor: one read served them.
    expect(feed.reads.length - reads).toBe(1);
    expect(news.sink.ids()).toEqual(['2', '4']);
  });

  it('resumes after a cursor without loss, through several pages', async () => {
    const feed = new MemoryChangeFeed();
    for (let i = 0; i < 12; i++) feed.add('news', String(i));
    const hub = hubOf(feed, { pageSize: 5 });
    const { sink } = await open(hub, { since: '3' });
    await until(() => sink.ids().length === 9);
    feed.add('news', 'later');
    await until(() => sink.ids().length === 10);
    expect(sink.ids()).toEqual(['4', '5', '6', '7', '8', '9', '10', '11', '12', '13']);
  });

  it('serves a stream whose cursor is inside a page from that page', async () => {
    const feed = new MemoryChangeFeed();
    for (let i = 0; i < 4; i++) feed.add('news', String(i));
    const hub = hubOf(feed);
    const behind = await open(hub, { since: '1' });
    const further = await open(hub, { since: '3' });
    await until(() => feed.reads.length >= 3);
    const reads = feed.reads.length;
    feed.add('news', 'new');
    await until(() => behind.sink.ids().length === 4 && further.sink.ids().length === 2);
    expect(feed.reads.length - reads).toBe(1);
    expect(behind.sink.ids()).toEqual(['2', '3', '4', '5']);
    expect(further.sink.ids()).toEqual(['4', '5']);
  });

  it('delivers a change that commits while a stream is opening', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed);
    feed.afterHead = () => feed.add('news', 'racing');
    const { sink } = await open(hub);
    await until(() => sink.ids().length === 1);
    expect(sink.ids()).toEqual(['1']);
  });

  it('refuses a cursor it cannot resume from before the stream starts, and frees its place', async () => {
    const feed = new MemoryChangeFeed();
    for (let i = 0; i < 3; i++) feed.add('news', String(i));
    feed.keptFrom = 2;
    const hub = hubOf(feed, { limits: { perCredential: 1 } });
    const sink = new MemorySink();
    const start = vi.fn();
    const opening = hub.open({ credential: 'a', accepts: () => true, since: '1', sink, start });
    await expect(opening).rejects.toMatchObject({ status: 410 });
    await expect(open(hub, { credential: 'a', since: 'nonsense' })).rejects.toMatchObject({ status: 400 });
    expect(start).not.toHaveBeenCalled();
    expect(sink.text).toBe('');
    expect(hub.size).toBe(0);
    await open(hub, { credential: 'a', since: '2' });
    expect(hub.size).toBe(1);
  });

  it('tells a stream whose cursor expired while it was open, then ends it', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed);
    const { sink } = await open(hub);
    feed.failNext = expiredCursor();
    feed.add('news', 'x');
    await until(() => sink.ended);
    expect(sink.text).toContain('event: error\ndata: {"error":{"status":410');
    expect(hub.size).toBe(0);
  });

  it('keeps streams open through a failed read and serves them at the next change', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed);
    const { sink } = await open(hub);
    feed.failNext = new Error('connection lost');
    feed.add('news', 'a');
    await until(() => feed.reads.length >= 1);
    feed.add('news', 'b');
    await until(() => sink.ids().length === 2);
    expect(hub.size).toBe(1);
  });

  it('limits streams per credential and in total with a 429, and frees a place when one closes', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed, { limits: { perCredential: 2, total: 3 } });
    const first = await open(hub, { credential: 'token:a' });
    await open(hub, { credential: 'token:a' });
    await expect(open(hub, { credential: 'token:a' })).rejects.toMatchObject({
      status: 429,
      code: 'too_many_requests',
      detail: { code: 'too_many', max: 2, of: 'event_streams_of_credential' },
    });
    await open(hub, { credential: 'token:b' });
    await expect(open(hub, { credential: 'token:c' })).rejects.toMatchObject({
      status: 429,
      detail: { code: 'too_many', max: 3, of: 'event_streams' },
    });
    first.sink.emit('close');
    expect(hub.size).toBe(2);
    await open(hub, { credential: 'token:a' });
    expect(hub.size).toBe(3);
  });

  it('counts streams still opening against the limits', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed, { limits: { perCredential: 1 } });
    const opening = [open(hub, { credential: 'x' }), open(hub, { credential: 'x' })];
    const outcomes = await Promise.allSettled(opening);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
  });

  it('lets a stream whose socket is backed up wait for it, and cuts off one past the bound', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed, { maxBufferedBytes: 1000 });
    const slow = await open(hub);
    const stuck = await open(hub);
    const fast = await open(hub);
    slow.sink.writableLength = 300;
    feed.add('news', '1');
    await until(() => fast.sink.ids().length === 1);
    expect(slow.sink.ids()).toEqual(['1']);
    // Now above a quarter of the bound, the slow stream gets nothing more until its socket drains.
    feed.add('news', '2');
    await until(() => fast.sink.ids().length === 2);
    expect(slow.sink.ids()).toEqual(['1']);
    slow.sink.writableLength = 0;
    slow.sink.emit('drain');
    await until(() => slow.sink.ids().length === 2);
    stuck.sink.writableLength = 5000;
    feed.add('news', '3');
    await until(() => stuck.sink.destroyed);
    expect(hub.size).toBe(2);
    expect(fast.sink.ids()).toEqual(['1', '2', '3']);
  });

  it('sends heartbeats, and cuts off a stream that waits for its socket too long', async () => {
    vi.useFakeTimers();
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed, { heartbeatMs: 1000, stallMs: 5000, maxBufferedBytes: 1000 });
    const quiet = await open(hub);
    const stalled = await open(hub);
    stalled.sink.writableLength = 400;
    feed.add('news', '1');
    await vi.waitFor(() => expect(stalled.sink.ids()).toEqual(['1']));
    await vi.advanceTimersByTimeAsync(1000);
    expect(quiet.sink.text.match(/^: heartbeat$/gm)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(quiet.sink.text.match(/^: heartbeat$/gm)).toHaveLength(3);
    expect(stalled.sink.destroyed).toBe(false);
    await vi.advanceTimersByTimeAsync(4000);
    expect(stalled.sink.destroyed).toBe(true);
    expect(hub.size).toBe(1);
  });

  it('ends every stream when closed and takes no more', async () => {
    const feed = new MemoryChangeFeed();
    const hub = hubOf(feed);
    const a = await open(hub);
    const b = await open(hub);
    expect(feed.listenerCount).toBe(1);
    hub.close();
    expect(feed.listenerCount).toBe(0);
    expect(a.sink.ended && b.sink.ended).toBe(true);
    await expect(open(hub)).rejects.toMatchObject({ status: 503 });
  });
});
