import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HookBody, HookCreatedResponse } from '../../common/publishing-contract.js';
import { type ChildDatabase, type ChildServer, spawnServer } from '../test-support/child-server.js';
import { type HookReceiver, startHookReceiver } from '../test-support/hook-receiver.js';
import { createTestDatabase, type TestDatabase } from '../test-support/postgres.js';
import { newsBody } from '../test-support/seed.js';
import { testEngine } from '../test-support/test-server.js';

/**
 * The hook outbox across a crash, with real `quire serve` processes: an event written
 * with its change is delivered after a SIGKILL that came before its delivery, and one whose
 * delivery was under way when the server died is delivered again (at least once). On the engine
 * `testEngine()` names (server-pg runs it on PostgreSQL).
 */

let dir: string;
let database: ChildDatabase;
let postgres: TestDatabase | null = null;
let receiver: HookReceiver;
let server: ChildServer | null = null;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-hook-crash-'));
  if (testEngine() === 'postgres') {
    postgres = await createTestDatabase();
    database = { postgresUrl: postgres.url };
  } else {
    database = join(dir, 'content.sqlite');
  }
  receiver = await startHookReceiver();
});
afterEach(async () => {
  await server?.kill('SIGKILL');
  server = null;
});
afterAll(async () => {
  await receiver?.close();
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function call(method: string, path: string, json?: unknown): Promise<any> {
  const response = await fetch(`${(server as ChildServer).api}${path}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  expect(response.status, `${method} ${path}: ${text}`).toBeLessThan(300);
  return JSON.parse(text);
}

/** How long a delivery the receiver got may take to be logged (a loaded machine). */
const DELIVERY_LOGGED = { timeout: 10_000, interval: 50 };

const start = async () => {
  server = await spawnServer(database, ['--no-backups'], 'built');
};

describe('a server killed between a change and its delivery', () => {
  it('delivers the change after the restart', async () => {
    await start();
    const hook: HookCreatedResponse = await call('POST', '/hooks', {
      url: `${receiver.origin}/crash`,
      secret: 'x-secret',
    });
    const row = await call('POST', '/cms/news', newsBody({ title: 'Written before the crash' }));
    // Answered: committed with its event. The debounce (2 s) has not let it out yet.
    await (server as ChildServer).kill('SIGKILL');
    server = null;
    expect(receiver.received).toHaveLength(0);

    await start();
    const [got] = await receiver.waitFor(1, 20_000);
    expect(got.body as HookBody).toMatchObject({ type: 'news', id: row.id, action: 'create', by: 'stress' });
    // The receiver counts the POST when it arrives; the server logs it once the 200 is back, so
    // the log is waited for.
    await expect
      .poll(async () => (await call('GET', `/hooks/${hook.id}/deliveries`)).deliveries, DELIVERY_LOGGED)
      .toMatchObject([{ status: 'delivered', events: 1 }]);
    await call('DELETE', `/hooks/${hook.id}`);
  }, 60_000);

  it('delivers again an event whose delivery the crash cut short (at least once)', async () => {
    receiver.received.length = 0;
    await start();
    const hook: HookCreatedResponse = await call('POST', '/hooks', { url: `${receiver.origin}/cut` });
    // The first delivery is never answered: the server dies while it waits.
    receiver.answers.push('hang');
    const row = await call('POST', '/cms/news', newsBody({ title: 'Delivery cut short' }));
    await receiver.waitFor(1, 20_000);
    await (server as ChildServer).kill('SIGKILL');
    server = null;

    await start();
    const hits = await receiver.waitFor(2, postgres ? 45_000 : 20_000);
    expect(hits.map((hit) => (hit.body as HookBody).id)).toEqual([row.id, row.id]);
    // Taken out of the outbox once the second delivery's 200 is back.
    await expect.poll(async () => (await call('GET', `/hooks/${hook.id}`)).waiting, DELIVERY_LOGGED).toBe(0);
    expect((await call('GET', `/hooks/${hook.id}/deliveries`)).deliveries[0]).toMatchObject({
      status: 'delivered',
      events: 1,
    });
  }, 120_000);
});
