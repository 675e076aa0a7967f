import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HookCreatedResponse } from '../../common/publishing-contract.js';
import { request } from '../test-support/api-scenario.js';
import { type HookReceiver, startHookReceiver } from '../test-support/hook-receiver.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A delivery's signature binds the time it was sent, checked as a receiver would: a receiver that
 * verifies `X-Quire-Signature-V2` over `<X-Quire-Timestamp>.<body>` and holds the timestamp to a
 * five-minute window accepts a fresh delivery and refuses the same bytes replayed later.
 */

const SECRET = 'receiver-shared-secret';
const WINDOW_SECONDS = 300;

let server: TestServer;
let receiver: HookReceiver;

beforeAll(async () => {
  receiver = await startHookReceiver();
  server = await startTestServer({ hooks: { pollMs: 0, timeoutMs: 10_000 } });
});
afterAll(async () => {
  await server?.dispose();
  await receiver?.close();
});

const hmac = (text: string) => `sha256=${createHmac('sha256', SECRET).update(text, 'utf8').digest('hex')}`;
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** What a receiver following the documented scheme decides about a request, at `nowSeconds`. */
function verify(headers: IncomingHttpHeaders, raw: string, nowSeconds: number): 'accepted' | 'forged' | 'stale' {
  const timestamp = String(headers['x-quire-timestamp'] ?? '');
  const signature = String(headers['x-quire-signature-v2'] ?? '');
  if (!/^\d+$/.test(timestamp) || !same(signature, hmac(`${timestamp}.${raw}`))) return 'forged';
  return Math.abs(nowSeconds - Number(timestamp)) > WINDOW_SECONDS ? 'stale' : 'accepted';
}

describe('hook signatures', () => {
  it('sign the time of sending with the body, so a replay outside the window is refused', async () => {
    const made = await request(server, 'POST', '/hooks', { json: { url: `${receiver.origin}/build`, secret: SECRET } });
    expect(made.response.status, made.text).toBe(201);
    const hook = made.body as HookCreatedResponse;
    const tested = await request(server, 'POST', `/hooks/${hook.id}/test`);
    expect(tested.body).toMatchObject({ status: 'test_delivered', response_code: 200 });
    const [got] = await receiver.waitFor(1);
    const now = Math.floor(Date.now() / 1000);

    expect(verify(got.headers, got.raw, now)).toBe('accepted');
    // The signature before timestamps stays, for receivers written against it.
    expect(got.headers['x-quire-signature']).toBe(hmac(got.raw));
    // The same captured bytes, sent again an hour later, are refused.
    expect(verify(got.headers, got.raw, now + 3600)).toBe('stale');
    // A replay with a fresh timestamp no longer matches its signature, nor does a changed body.
    expect(verify({ ...got.headers, 'x-quire-timestamp': String(now + 3600) }, got.raw, now + 3600)).toBe('forged');
    expect(verify(got.headers, `${got.raw} `, now)).toBe('forged');
  });

  it('are absent from a hook without a secret', async () => {
    const made = await request(server, 'POST', '/hooks', { json: { url: `${receiver.origin}/open` } });
    expect(made.response.status, made.text).toBe(201);
    await request(server, 'POST', `/hooks/${made.body.id}/test`);
    const got = (await receiver.waitFor(2)).find((hit) => hit.path === '/open');
    expect(got?.headers).not.toHaveProperty('x-quire-timestamp');
    expect(got?.headers).not.toHaveProperty('x-quire-signature-v2');
  });
});
