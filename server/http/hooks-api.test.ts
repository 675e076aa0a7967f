import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEntry } from '../../common/change-contract.js';
import type {
  HookBody,
  HookCreatedResponse,
  HookDeliveryListResponse,
  HookSummary,
} from '../../common/publishing-contract.js';
import type { HookService } from '../hooks/hook-service.js';
import type { ScheduleService } from '../schedule/schedule-service.js';
import { request } from '../test-support/api-scenario.js';
import { type HookReceiver, startHookReceiver } from '../test-support/hook-receiver.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { newsBody } from '../test-support/seed.js';
import { reopenOptions, startTestServer, type TestServer, testEngine } from '../test-support/test-server.js';

/**
 * Build hooks over real HTTP against a local receiver, with a clock the test moves and
 * deliveries run when the test says: the admin API (a secret shown once), signed deliveries,
 * changes within the debounce in one delivery, retries with backoff until the receiver recovers,
 * no redirect followed, timeouts, giving up after a day, and Send test.
 */

let clock = new Date('2026-11-30T12:00:00.000Z');
const advance = (ms: number) => {
  clock = new Date(clock.getTime() + ms);
};

let server: TestServer;
let receiver: HookReceiver;

/**
 * A receiver's time to answer (real time, not the moved clock): long, as a loaded machine can
 * take a while to answer even on 127.0.0.1; the one test of a silent receiver shortens it.
 */
const TIMEOUT_MS = 10_000;

beforeAll(async () => {
  receiver = await startHookReceiver();
  server = await startTestServer({
    hooks: { now: () => clock, pollMs: 0, debounceMs: 2000, retryBaseMs: 1000, timeoutMs: TIMEOUT_MS },
    scheduler: { now: () => clock, pollMs: 0 },
  });
});
afterAll(async () => {
  await server?.dispose();
  await receiver?.close();
});

async function ok(method: string, url: string, json?: unknown) {
  const { response, body, text } = await request(server, method, url, json === undefined ? {} : { json });
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

const hooks = () => server.services.hooks as HookService;
const deliver = () => hooks().dispatcher.deliverDue();

/** Removes every hook, so each test sees only its own deliveries. */
beforeEach(async () => {
  for (const hook of (await ok('GET', '/hooks')).hooks as HookSummary[]) await ok('DELETE', `/hooks/${hook.id}`);
  receiver.received.length = 0;
  receiver.answers.length = 0;
});

async function addHook(json: Record<string, unknown>): Promise<HookCreatedResponse> {
  const { response, body, text } = await request(server, 'POST', '/hooks', { json });
  expect(response.status, text).toBe(201);
  return body;
}

async function deliveries(id: string): Promise<HookDeliveryListResponse> {
  return ok('GET', `/hooks/${id}/deliveries`);
}

describe('the hooks API', () => {
  it('adds, lists, changes and removes hooks; the secret is shown once', async () => {
    const created = await addHook({ url: `${receiver.origin}/build`, secret: 's3cret-value', content_types: ['news'] });
    expect(created).toMatchObject({
      url: `${receiver.origin}/build`,
      content_types: ['news'],
      actions: null,
      has_secret: true,
      secret: 's3cret-value',
      created_by: 'tester',
      waiting: 0,
      failures: 0,
    });
    const listed = (await ok('GET', '/hooks')).hooks as HookSummary[];
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');
    expect(JSON.stringify(listed)).not.toContain('s3cret-value');
    const one = await ok('GET', `/hooks/${created.id}`);
    expect(JSON.stringify(one)).not.toContain('s3cret-value');

    const changed = await ok('PATCH', `/hooks/${created.id}`, { actions: ['delete', 'create'], secret: 'another-one' });
    expect(changed).toMatchObject({ actions: ['delete', 'create'], has_secret: true, content_types: ['news'] });
    expect(JSON.stringify(changed)).not.toContain('another-one');
    expect((await ok('PATCH', `/hooks/${created.id}`, { secret: null })).has_secret).toBe(false);

    expect(await ok('DELETE', `/hooks/${created.id}`)).toEqual({ id: created.id, deleted: true });
    expect((await request(server, 'GET', `/hooks/${created.id}`)).response.status).toBe(404);
    expect((await request(server, 'DELETE', `/hooks/${created.id}`)).response.status).toBe(404);
  });

  it('refuses what it cannot deliver to, naming each problem, and adds nothing', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{}, 'url', 'required'],
      [{ url: 'ftp://example.com/hook' }, 'url', 'not_a_hook_url'],
      [{ url: 'javascript:alert(1)' }, 'url', 'not_a_hook_url'],
      [{ url: 'not a url' }, 'url', 'not_a_hook_url'],
      [{ url: 'https://example.com', content_types: ['nope'] }, 'content_types', 'no_such_type'],
      [{ url: 'https://example.com', actions: ['publish'] }, 'actions', 'not_an_option'],
      [{ url: 'https://example.com', secret: 42 }, 'secret', 'not_text'],
    ];
    for (const [json, field, code] of cases) {
      const { response, body } = await request(server, 'POST', '/hooks', { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(body.error.problems[field].code, JSON.stringify(json)).toBe(code);
    }
    const unknown = await request(server, 'POST', '/hooks', { json: { url: 'https://example.com', when: 'always' } });
    expect(unknown.response.status).toBe(400);
    expect((await ok('GET', '/hooks')).hooks).toEqual([]);
  });
});

describe('deliveries', () => {
  it('POSTs each change signed with HMAC-SHA256 of the body, after the debounce', async () => {
    const hook = await addHook({ url: `${receiver.origin}/build?site=1`, secret: 'signing-secret' });
    const row = await ok('POST', '/cms/news', newsBody({ title: 'Signed' }));
    expect((await ok('GET', `/hooks/${hook.id}`)).waiting).toBe(1);
    await deliver();
    expect(receiver.received).toHaveLength(0);

    advance(2000);
    await deliver();
    const [got] = await receiver.waitFor(1);
    expect(got.path).toBe('/build?site=1');
    expect(got.headers['content-type']).toBe('application/json');
    const expected = `sha256=${createHmac('sha256', 'signing-secret').update(got.raw).digest('hex')}`;
    expect(got.headers['x-quire-signature']).toBe(expected);
    const body = got.body as HookBody;
    expect(body).toMatchObject({ event: 'content.change', type: 'news', id: row.id, action: 'create', by: 'tester' });
    expect(body.at).toMatch(/^2026-11-30 12:00:0\d\.\d{6}$/);
    expect(body.events).toHaveLength(1);

    const log = await deliveries(hook.id);
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({
      status: 'delivered',
      response_code: 200,
      attempt: 1,
      events: 1,
      error: null,
    });
    expect((await ok('GET', `/hooks/${hook.id}`)).waiting).toBe(0);
    // Delivered once: nothing more goes out.
    advance(60_000);
    await deliver();
    expect(receiver.received).toHaveLength(1);
  });

  it('sends changes within the debounce as one delivery, each hook only what it asked for', async () => {
    const all = await addHook({ url: `${receiver.origin}/all` });
    const deletes = await addHook({ url: `${receiver.origin}/deletes`, actions: ['delete'] });
    const categories = await addHook({ url: `${receiver.origin}/categories`, content_types: ['categories'] });
    const row = await ok('POST', '/cms/news', newsBody({ title: 'Batched' }));
    advance(500);
    await ok('PUT', `/cms/news/${row.id}`, { title: 'Batched again' });
    advance(500);
    await ok('DELETE', `/cms/news/${row.id}`);
    advance(1000);
    await deliver();
    // The first change's debounce is over: all three go out in one delivery.
    expect((await receiver.waitFor(1)).map((hit) => hit.path)).toEqual(['/all']);
    // The delete-only hook's one event is past its own debounce a second later.
    advance(1000);
    await deliver();
    const got = await receiver.waitFor(2);
    advance(10_000);
    await deliver();
    expect(receiver.received).toHaveLength(2);
    const byPath = new Map(got.map((hit) => [hit.path, hit.body as HookBody]));
    const batch = byPath.get('/all') as HookBody;
    expect(batch.events.map((event) => event.action)).toEqual(['create', 'update', 'delete']);
    expect(batch.events.every((event) => event.id === row.id && event.type === 'news')).toBe(true);
    // The newest event is at the top.
    expect(batch).toMatchObject({ action: 'delete', id: row.id });
    expect(got.find((hit) => hit.path === '/all')?.headers['x-quire-signature']).toBeUndefined();
    expect((byPath.get('/deletes') as HookBody).events.map((event) => event.action)).toEqual(['delete']);
    expect(byPath.has('/categories')).toBe(false);
    expect((await deliveries(all.id)).deliveries[0].events).toBe(3);
    expect((await deliveries(deletes.id)).deliveries[0].events).toBe(1);
    expect((await deliveries(categories.id)).total).toBe(0);
  });

  it('retries with a growing wait while the receiver fails, then delivers once it recovers', async () => {
    const hook = await addHook({ url: `${receiver.origin}/flaky` });
    receiver.answers.push(500, 503);
    const row = await ok('POST', '/cms/news', newsBody({ title: 'Retried' }));
    advance(2000);
    await deliver();
    await receiver.waitFor(1);
    let state: HookSummary = await ok('GET', `/hooks/${hook.id}`);
    expect(state).toMatchObject({ failures: 1, waiting: 1 });
    // Not before the first retry's wait (1 s).
    advance(900);
    await deliver();
    expect(receiver.received).toHaveLength(1);
    advance(100);
    await deliver();
    await receiver.waitFor(2);
    // The second wait is twice the first.
    advance(1900);
    await deliver();
    expect(receiver.received).toHaveLength(2);
    advance(100);
    await deliver();
    await receiver.waitFor(3);
    state = await ok('GET', `/hooks/${hook.id}`);
    expect(state).toMatchObject({ failures: 0, waiting: 0, retry_at: null });
    expect(receiver.received.map((hit) => (hit.body as HookBody).id)).toEqual([row.id, row.id, row.id]);
    const log = await deliveries(hook.id);
    expect(log.deliveries.map((delivery) => [delivery.status, delivery.response_code, delivery.attempt])).toEqual([
      ['delivered', 200, 3],
      ['failed', 503, 2],
      ['failed', 500, 1],
    ]);
    expect(log.deliveries[1].error).toContain('503');
  });

  it('follows no redirect, gives a silent receiver up after the timeout, and drops events failing for a day', async () => {
    const other = await startHookReceiver();
    try {
      const hook = await addHook({ url: `${receiver.origin}/moved` });
      receiver.answers.push({ redirect: `${other.origin}/elsewhere` }, 'hang');
      await ok('POST', '/cms/news', newsBody({ title: 'Nowhere' }));
      advance(2000);
      await deliver();
      let log = await deliveries(hook.id);
      expect(log.deliveries[0]).toMatchObject({ status: 'failed', response_code: 302 });
      expect(log.deliveries[0].error).toContain('redirect');
      expect(other.received).toHaveLength(0);

      advance(1000);
      hooks().settings.timeoutMs = 500;
      try {
        await deliver();
      } finally {
        hooks().settings.timeoutMs = TIMEOUT_MS;
      }
      log = await deliveries(hook.id);
      expect(log.deliveries[0]).toMatchObject({ status: 'failed', response_code: null, attempt: 2 });
      expect(log.deliveries[0].error).toContain('No answer');

      receiver.answers.push(500);
      advance(24 * 60 * 60 * 1000);
      await deliver();
      log = await deliveries(hook.id);
      expect(log.deliveries[0]).toMatchObject({ status: 'gave_up', response_code: 500, attempt: 3 });
      expect(await ok('GET', `/hooks/${hook.id}`)).toMatchObject({ waiting: 0, failures: 0, retry_at: null });
    } finally {
      await other.close();
    }
  });

  it('Send test delivers a test event now and logs it', async () => {
    const hook = await addHook({ url: `${receiver.origin}/test`, secret: 'test-secret' });
    const result = await ok('POST', `/hooks/${hook.id}/test`);
    expect(result).toMatchObject({ status: 'test_delivered', response_code: 200, attempt: 1, events: 1 });
    const [got] = await receiver.waitFor(1);
    expect(got.body).toMatchObject({ event: 'test', action: 'test', by: 'tester' });
    expect(got.headers['x-quire-signature']).toBe(
      `sha256=${createHmac('sha256', 'test-secret').update(got.raw).digest('hex')}`,
    );
    receiver.answers.push(404);
    expect(await ok('POST', `/hooks/${hook.id}/test`)).toMatchObject({ status: 'test_failed', response_code: 404 });
    expect((await deliveries(hook.id)).total).toBe(2);
  });

  it('hears of scheduled changes, in the name of who scheduled them', async () => {
    await addHook({ url: `${receiver.origin}/scheduled` });
    const row = await ok('POST', '/cms/news', newsBody({ title: 'Later', status: 'draft' }));
    await ok('POST', `/cms/news/${row.id}/schedule`, { status: 'published', at: '2026-12-25 07:00:00' });
    clock = new Date('2026-12-25T07:00:00.000Z');
    expect(await (server.services.schedules as ScheduleService).runDue()).toBe(1);
    advance(2000);
    await deliver();
    const [got] = await receiver.waitFor(1);
    expect((got.body as HookBody).events.map((event) => [event.action, event.by])).toEqual([
      ['create', 'tester'],
      ['update', 'tester'],
    ]);
  });

  it('queues nothing for a write that failed', async () => {
    const hook = await addHook({ url: `${receiver.origin}/failed` });
    const { response } = await request(server, 'POST', '/cms/news', { json: { title: '' } });
    expect(response.status).toBe(400);
    const { rows } = await sql`select count(*) as n from quire_hook_outbox`.execute(server.database.db);
    expect(Number((rows[0] as { n: unknown }).n)).toBe(0);
    expect((await ok('GET', `/hooks/${hook.id}`)).waiting).toBe(0);
  });
});

describe('localized content', () => {
  it('names the locales each change touched, as the change feed does, scheduled changes too', async () => {
    const site = {
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['en'] },
      ],
    };
    await ok('PUT', '/locales', site);
    const status = { id: 'draft', text: 'Draft' };
    await ok('POST', '/cms-content', {
      title: 'Stories',
      columns: [
        { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
        {
          name: 'status',
          label: 'Status',
          type: 'select',
          required: false,
          options: [status, { id: 'live', text: 'Live' }],
        },
      ],
    });
    await addHook({ url: `${receiver.origin}/localized` });
    const story = await ok('POST', '/cms/stories', { title: 'Harbour', status: 'draft' });
    await ok('PUT', `/cms/stories/${story.id}?locale=de`, { title: 'Hafen' });
    await ok('PUT', `/cms/stories/${story.id}?locale=de`, { status: 'live' });
    const news = await ok('POST', '/cms/news', newsBody({ title: 'Unlocalized' }));
    const at = new Date(clock.getTime() + 60_000).toISOString().slice(0, 19).replace('T', ' ');
    await ok('POST', `/cms/stories/${story.id}/schedule`, { status: 'draft', at });
    advance(60_000);
    expect(await (server.services.schedules as ScheduleService).runDue()).toBe(1);
    advance(2000);
    await deliver();
    const [got] = await receiver.waitFor(1);
    const body = got.body as HookBody;
    expect(body.events.map((event) => [event.type, event.id, event.action, event.locales])).toEqual([
      ['stories', story.id, 'create', ['en']],
      ['stories', story.id, 'update', ['de']],
      // Shared fields (the status a schedule sets too) are every locale's: no locale's own values.
      ['stories', story.id, 'update', []],
      ['news', news.id, 'create', undefined],
      ['stories', story.id, 'update', []],
    ]);
    expect(body.events[3]).not.toHaveProperty('locales');
    expect(body.locales).toEqual([]);

    const feed = (await ok('GET', '/changes?limit=1000')).changes as ChangeEntry[];
    for (const event of body.events) {
      const entry = feed.find((change) => change.cursor === event.cursor);
      expect(entry?.locales, `${event.type} ${event.action}`).toEqual(event.locales);
    }
    const document = await ok('GET', '/openapi.json');
    expect(new ResponseChecker(document).matches('HookBody', body)).toEqual([]);
  });
});

describe('a server stopped during a delivery', () => {
  it('gives the delivery up at once, logs no failure, and the next server sends the events', async () => {
    const slow = { now: () => clock, pollMs: 0, debounceMs: 2000, retryBaseMs: 1000, timeoutMs: 60_000 };
    const first = await startTestServer({ hooks: slow });
    let second: TestServer | undefined;
    try {
      const created = await request(first, 'POST', '/hooks', { json: { url: `${receiver.origin}/stopped` } });
      const row = await request(first, 'POST', '/cms/news', { json: newsBody({ title: 'Cut short' }) });
      receiver.answers.push('hang');
      advance(2000);
      const delivering = (first.services.hooks as HookService).dispatcher.deliverDue();
      await receiver.waitFor(1);
      // The receiver never answers; stopping does not wait its minute out.
      await first.stop();
      await delivering;
      second = await startTestServer({ ...reopenOptions(first), hooks: slow });
      const waiting = await request(second, 'GET', `/hooks/${created.body.id}`);
      expect(waiting.body).toMatchObject({ waiting: 1, failures: 0 });
      expect((await request(second, 'GET', `/hooks/${created.body.id}/deliveries`)).body.total).toBe(0);
      await (second.services.hooks as HookService).dispatcher.deliverDue();
      const [, again] = await receiver.waitFor(2);
      expect((again.body as HookBody).id).toBe(row.body.id);
    } finally {
      await second?.stop();
      await first.dispose();
    }
  });
});

// Several servers share only a PostgreSQL database.
describe.skipIf(testEngine() !== 'postgres')('two servers on one PostgreSQL database', () => {
  it('deliver each event once between them', async () => {
    const hookOptions = { now: () => clock, pollMs: 0, debounceMs: 2000, retryBaseMs: 1000, timeoutMs: TIMEOUT_MS };
    const other = await startTestServer({ ...reopenOptions(server), hooks: hookOptions });
    try {
      const hook = await addHook({ url: `${receiver.origin}/shared` });
      await (other.services.hooks as HookService).refresh();
      const ids: string[] = [];
      for (let index = 0; index < 10; index++) {
        const on = index % 2 === 0 ? server : other;
        const { response, body } = await request(on, 'POST', '/cms/news', {
          json: newsBody({ title: `Shared ${index}` }),
        });
        expect(response.status).toBe(201);
        ids.push(body.id);
      }
      advance(2000);
      const otherHooks = other.services.hooks as HookService;
      await Promise.all([deliver(), otherHooks.dispatcher.deliverDue(), deliver(), otherHooks.dispatcher.deliverDue()]);
      await receiver.waitFor(1);
      advance(60_000);
      await Promise.all([deliver(), otherHooks.dispatcher.deliverDue()]);
      expect(receiver.received).toHaveLength(1);
      const events = (receiver.received[0].body as HookBody).events;
      expect(events.map((event) => event.id).sort()).toEqual([...ids].sort());
      expect((await deliveries(hook.id)).total).toBe(1);
    } finally {
      await other.stop();
    }
  });
});
