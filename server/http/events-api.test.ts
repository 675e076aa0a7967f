import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeEntry } from '../changes/change-feed.js';
import { request } from '../test-support/api-scenario.js';
import { type EventStreamClient, openEventStream } from '../test-support/event-stream-client.js';
import { pngImage } from '../test-support/sample-images.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam, signIn } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * `GET /api/events` over real HTTP (both engines): row writes arrive as events whose id is the
 * feed's cursor, a dropped connection resumes with `Last-Event-ID` without loss or repeats, type
 * limits of tokens hold (uploads' media changes reach only streams without one), credentials are
 * checked, and streams past the limits get a 429.
 */

let server: TestServer;
let as: Credentials;
const open: EventStreamClient[] = [];

async function stream(query = '', headers: Record<string, string> = as.admin): Promise<EventStreamClient> {
  const client = await openEventStream(`${server.api}/events${query}`, headers);
  open.push(client);
  return client;
}

async function create(table: string, json: unknown, headers = as.admin): Promise<string> {
  const { response, body, text } = await request(server, 'POST', `/cms/${table}`, { json, headers });
  expect(response.status, text).toBe(201);
  return String(body.id);
}

const changesOf = (client: EventStreamClient, count: number) =>
  client.waitFor(count).then((events) => events.map((event) => JSON.parse(event.data) as ChangeEntry));

beforeAll(async () => {
  server = await startTestServer({ events: { limits: { perCredential: 2, total: 5 }, heartbeatMs: 50 } });
  as = await makeTeam(server);
  // A team's password hashes are slow on purpose.
}, 60_000);
afterAll(async () => {
  for (const client of open) client.close();
  await server?.dispose();
});

describe('GET /api/events', () => {
  it('sends each committed write as an event whose id is its cursor in the feed', async () => {
    const { body: before } = await request(server, 'GET', '/changes?limit=1000', { headers: as.admin });
    const client = await stream();
    expect(client.status).toBe(200);
    expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const id = await create('news', newsBody({ title: 'Live' }));
    const [change] = await changesOf(client, 1);
    expect(change).toMatchObject({ type: 'news', id, action: 'create' });
    expect(client.events[0]).toMatchObject({ id: change.cursor, event: 'change' });
    const { body: page } = await request(server, 'GET', `/changes?since=${encodeURIComponent(before.next)}`, {
      headers: as.admin,
    });
    expect(page.changes).toEqual([change]);
    client.close();
  });

  it('resumes after a dropped connection from Last-Event-ID, losing and repeating nothing', async () => {
    const client = await stream();
    const first = await create('news', newsBody({ title: 'Before the drop' }));
    const [seen] = await changesOf(client, 1);
    expect(seen.id).toBe(first);
    client.close();
    const missed = [
      await create('news', newsBody({ title: 'While away 1' })),
      await create('categories', { title: 'While away 2' }),
    ];
    const again = await stream('', { ...as.admin, 'Last-Event-ID': seen.cursor });
    const resumed = await changesOf(again, 2);
    expect(resumed.map((change) => change.id)).toEqual(missed);
    const later = await create('news', newsBody({ title: 'After' }));
    expect((await changesOf(again, 3))[2].id).toBe(later);
    again.close();
  });

  it("gives a type-limited token only its types' changes, and refuses it others by name", async () => {
    const limited = await stream('', as.news_token);
    const refused = await stream('?types=categories', as.news_token);
    await refused.ended;
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text()).error.code).toBe('forbidden');
    const onlyCategories = await stream('?types=categories', as.viewer_token);
    const category = await create('categories', { title: 'Hidden from news-bot' });
    const news = await create('news', newsBody({ title: 'For news-bot' }));
    expect((await changesOf(limited, 1)).map((change) => change.id)).toEqual([news]);
    expect((await changesOf(onlyCategories, 1)).map((change) => change.id)).toEqual([category]);
    limited.close();
    onlyCategories.close();
  });

  it('sends an upload as a media change to streams without a type limit only', async () => {
    const all = await stream('', as.viewer_token);
    const limited = await stream('', as.news_token);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'dot.png');
    const response = await fetch(`${server.api}/uploads`, { method: 'POST', body: form, headers: as.admin_token });
    expect(response.status).toBe(201);
    const { path } = (await response.json()) as { path: string };
    const [media] = await changesOf(all, 1);
    expect(media).toMatchObject({ type: 'media', id: path, action: 'media', by: 'ci' });
    // The limited stream moves past it: the news row after it is the first change it gets.
    const news = await create('news', newsBody({ title: 'After an upload' }));
    expect((await changesOf(limited, 1)).map((change) => change.id)).toEqual([news]);
    expect((await changesOf(all, 2))[1].id).toBe(news);
    all.close();
    limited.close();
  });

  it('checks the credential like every API request', async () => {
    for (const headers of [as.bad_token, as.revoked_token]) {
      const refused = await stream('', headers);
      await refused.ended;
      expect(refused.status).toBe(401);
    }
  });

  it('ends a stream once its token is revoked or its session ends, saying why', async () => {
    const made = await request(server, 'POST', '/tokens', {
      json: { name: 'short-lived', role: 'viewer' },
      headers: as.admin,
    });
    expect(made.response.status, made.text).toBe(201);
    const byToken = await stream('', { authorization: `Bearer ${made.body.token}` });
    const session = await signIn(server, 'vera');
    const bySession = await stream('', session);
    expect([byToken.status, bySession.status]).toEqual([200, 200]);
    const revoked = await request(server, 'DELETE', '/tokens/short-lived', { headers: as.admin });
    expect(revoked.response.status, revoked.text).toBe(200);
    const signedOut = await request(server, 'POST', '/auth/sign-out', { headers: session });
    expect(signedOut.response.status, signedOut.text).toBeLessThan(300);
    for (const client of [byToken, bySession]) {
      await client.ended;
      const last = client.events.at(-1);
      expect(last?.event).toBe('error');
      expect(JSON.parse(last?.data ?? '{}').error.code).toBe('unauthorized');
    }
  });

  it('refuses a cursor this database never gave before the stream starts', async () => {
    const refused = await stream('?since=this-is-no-cursor');
    await refused.ended;
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text()).error.code).toBe('bad_cursor');
  });

  it('sends heartbeats on a quiet stream', async () => {
    const client = await stream('', as.viewer);
    while (!client.comments.includes('heartbeat')) await new Promise((resolve) => setTimeout(resolve, 10));
    client.close();
  });

  it('answers streams past the limits with a 429 in the one error shape', async () => {
    const mine = [await stream('', as.viewer_token), await stream('', as.viewer_token)];
    const third = await stream('', as.viewer_token);
    await third.ended;
    expect(third.status).toBe(429);
    expect(JSON.parse(third.text()).error).toMatchObject({
      code: 'too_many_requests',
      detail: { code: 'too_many', max: 2, of: 'event_streams_of_credential' },
    });
    const others = [await stream('', as.editor), await stream('', as.author), await stream('', as.admin_token)];
    const beyond = await stream('', as.admin);
    await beyond.ended;
    expect(beyond.status).toBe(429);
    expect(JSON.parse(beyond.text()).error.detail).toMatchObject({ max: 5, of: 'event_streams' });
    for (const client of [...mine, ...others]) client.close();
  });
});
