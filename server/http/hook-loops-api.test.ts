import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HookRepository } from '../db/repositories/hook-repository.js';
import type { HookService } from '../hooks/hook-service.js';
import { request } from '../test-support/api-scenario.js';
import { countRows, newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A build hook never makes Quire call itself: an address that is plainly the server is refused
 * when the hook is written, one that turns out to be it is refused at delivery, and a request a
 * delivery sent may not write, so two servers whose hooks point at each other do not loop.
 */
const HOOKS = { pollMs: 0, timeoutMs: 2000, debounceMs: 0 };
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  first = await startTestServer({ hooks: HOOKS });
  second = await startTestServer({ hooks: HOOKS });
});
afterAll(async () => {
  await first?.dispose();
  await second?.dispose();
});

const hooksOf = (server: TestServer) => server.services.hooks as HookService;

async function addHook(server: TestServer, url: string, extra: Record<string, unknown> = {}): Promise<string> {
  const { response, body, text } = await request(server, 'POST', '/hooks', { json: { url, ...extra } });
  expect(response.status, text).toBe(201);
  return body.id;
}

describe('a hook to the server itself', () => {
  it('is refused when written, naming why, and nothing is kept', async () => {
    const port = new URL(first.origin).port;
    for (const url of [
      `${first.origin}/api/hooks/any/test`,
      `http://localhost:${port}/api/cms/news`,
      `http://0.0.0.0:${port}/`,
    ]) {
      const { response, body, text } = await request(first, 'POST', '/hooks', { json: { url } });
      expect(response.status, `${url}: ${text}`).toBe(400);
      expect(body.error.message).toMatch(/this Quire server itself/);
    }
    expect((await request(first, 'GET', '/hooks')).body.hooks).toEqual([]);
    const id = await addHook(first, `${second.origin}/api/anything`);
    const changed = await request(first, 'PATCH', `/hooks/${id}`, { json: { url: `${first.origin}/x` } });
    expect(changed.response.status, changed.text).toBe(400);
    expect((await request(first, 'GET', `/hooks/${id}`)).body.url).toBe(`${second.origin}/api/anything`);
    await request(first, 'DELETE', `/hooks/${id}`);
  });

  it('kept from before is refused at delivery, for a test and for a change', async () => {
    const id = 'old-self-hook';
    await new HookRepository(first.database.db).insert({
      id,
      url: `${first.origin}/api/hooks/${id}/test`,
      content_types: JSON.stringify(['news']),
      actions: null,
      secret: null,
      created_at: '2026-01-01 00:00:00.000000',
      created_by: null,
      failures: 0,
      retry_at: null,
      lease_until: null,
      lease_owner: null,
    });
    await hooksOf(first).refresh();
    const tested = await request(first, 'POST', `/hooks/${id}/test`);
    expect(tested.response.status, tested.text).toBe(200);
    expect(tested.body).toMatchObject({ status: 'test_failed', response_code: null });
    expect(tested.body.error).toMatch(/this Quire server itself/);
    const created = await request(first, 'POST', '/cms/news', { json: newsBody({ title: 'Self hook' }) });
    expect(created.response.status, created.text).toBe(201);
    await hooksOf(first).dispatcher.deliverDue();
    const log = await request(first, 'GET', `/hooks/${id}/deliveries`);
    expect(log.body.deliveries.map((delivery: { status: string }) => delivery.status)).toEqual([
      'failed',
      'test_failed',
    ]);
    expect(log.body.deliveries[0].error).toMatch(/this Quire server itself/);
    await request(first, 'DELETE', `/hooks/${id}`);
  });
});

describe('a request sent by a delivery', () => {
  it('may read but not write, row writes included', async () => {
    const before = await countRows(first, 'news');
    const headers = { 'quire-delivery': 'some-delivery' };
    const write = await request(first, 'POST', '/cms/news', { json: newsBody({ title: 'Echo' }), headers });
    expect(write.response.status, write.text).toBe(403);
    expect(write.body.error.message).toMatch(/Quire-Delivery/);
    const type = await request(first, 'POST', '/cms-content', { json: { title: 'Echoes' }, headers });
    expect(type.response.status, type.text).toBe(403);
    expect(await countRows(first, 'news')).toBe(before);
    expect((await request(first, 'GET', '/cms/news', { headers })).response.status).toBe(200);
  });

  it('cannot loop two servers whose hooks point at each other', async () => {
    const onSecond = await addHook(second, `${first.origin}/api/placeholder`);
    const onFirst = await addHook(first, `${second.origin}/api/hooks/${onSecond}/test`);
    const pointed = await request(second, 'PATCH', `/hooks/${onSecond}`, {
      json: { url: `${first.origin}/api/hooks/${onFirst}/test` },
    });
    expect(pointed.response.status, pointed.text).toBe(200);
    const tested = await request(first, 'POST', `/hooks/${onFirst}/test`);
    expect(tested.response.status, tested.text).toBe(200);
    // The second server refuses the delivery's request: it starts no delivery of its own.
    expect(tested.body).toMatchObject({ status: 'test_failed', response_code: 403 });
    expect((await request(second, 'GET', `/hooks/${onSecond}/deliveries`)).body.total).toBe(0);
    expect((await request(first, 'GET', `/hooks/${onFirst}/deliveries`)).body.total).toBe(1);
  });
});
