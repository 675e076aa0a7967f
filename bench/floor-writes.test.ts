import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { freePort, startServer, stop } from './processes.mjs';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { copyFloor } from './sqlite-bench.mjs';

const bench = import.meta.dirname;
const shared = process.env.QUIRE_SHARED_BENCH ?? join(bench, '..', '..', 'shared', 'bench');
const hasShared = existsSync(join(shared, 'limit-server.mjs'));
const form = { 'content-type': 'application/x-www-form-urlencoded' };

// The floor is ../shared/bench/limit-server.mjs; without that folder there is nothing to extend.
describe.skipIf(!hasShared)('the floor with updates (needs ../shared/bench)', () => {
  let dir: string;
  let base: string;
  let floor: ChildProcess;

  beforeAll(async () => {
    // As run-bench.mjs does: the copy beside bench/ finds better-sqlite3 in this repository.
    copyFloor(shared, bench);
    dir = mkdtempSync(join(tmpdir(), 'quire-floor-'));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const args = [join(bench, 'floor-writes.mjs'), join(dir, 'floor.db'), String(port), '50'];
    floor = (await startServer('floor', process.execPath, args, `${base}/api/cms/news?limit=1`, 15_000)).child;
  });
  afterAll(async () => {
    if (floor) await stop(floor);
    rmSync(dir, { recursive: true, force: true });
  });

  it('PATCH changes the fields given, keeps the others, and a later GET sees it', async () => {
    const before = (await (await fetch(`${base}/api/cms/news/7`)).json()).rows[0];
    const response = await fetch(`${base}/api/cms/news/7`, { method: 'PATCH', headers: form, body: 'title=New+title' });
    expect(response.status).toBe(200);
    const after = (await (await fetch(`${base}/api/cms/news/7`)).json()).rows[0];
    expect(after).toMatchObject({
      id: '7',
      title: 'New title',
      status: before.status,
      published_at: before.published_at,
    });
    expect(after.updated_at).not.toBe(before.updated_at);
  });

  it('PUT is the same update; an unknown id is a 404 and changes nothing', async () => {
    const put = await fetch(`${base}/api/cms/news/8`, { method: 'PUT', headers: form, body: 'status=archived' });
    expect((await put.json()).rows[0]).toMatchObject({ id: '8', status: 'archived' });
    const missing = await fetch(`${base}/api/cms/news/999`, { method: 'PATCH', headers: form, body: 'title=x' });
    expect(missing.status).toBe(404);
    const list = await (await fetch(`${base}/api/cms/news?limit=1`)).json();
    expect(list.total).toBe(50);
  });

  it('still answers what the shared floor answers: lists with order and offset, creates', async () => {
    const page = await (await fetch(`${base}/api/cms/news?order=title&desc=true&limit=5&offset=10`)).json();
    expect(page).toMatchObject({ total: 50, filtered: 50, count: 5 });
    const created = await fetch(`${base}/api/cms/news`, {
      method: 'POST',
      headers: form,
      body: 'title=Made&status=draft&published_at=2026-01-01+00%3A00%3A00',
    });
    expect(created.status).toBe(201);
  });
});
