// Engine: SQLite only: the SQLite file under SIGKILL and backups taken during the load; PostgreSQL's are
// server/http/postgres-outage-drill.test.ts (the database stopped under writes) and
// server/http/postgres-load-api.test.ts (two servers under load).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLoadDrill } from '../test-support/load-drill.js';

const SECONDS = Number(process.env.QUIRE_LOAD_SECONDS ?? 30);

/** `npm run test:stress`: 64 concurrent clients for 30 s against a real server process on 127.0.0.1. */
describe('a server under 64 concurrent clients', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`answers ${SECONDS} s of mixed reads and writes with zero 5xx and no SQLITE_BUSY`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-load-'));
    const { load, backups, serverErrors, apiTotal, tableTotal } = await runLoadDrill({
      dbFile: join(dir, 'content.sqlite'),
      clients: 64,
      durationMs: SECONDS * 1000,
      backupEveryMs: 5_000,
    });
    console.log(
      `load: ${load.requests} requests in ${SECONDS} s (${Math.round(load.requests / SECONDS)}/s; ` +
        `${load.reads} reads, ${load.writes} writes), statuses ${JSON.stringify(load.byStatus)}, ` +
        `p50 ${load.p50} ms, p99 ${load.p99} ms, ${backups} backups taken meanwhile, ${tableTotal} rows at the end`,
    );
    expect(load.failures).toEqual([]);
    expect(load.busy).toEqual([]);
    expect(Object.keys(load.byStatus).every((status) => Number(status) < 500)).toBe(true);
    expect(backups).toBeGreaterThan(0);
    expect(serverErrors).toBe('');
    expect(apiTotal).toBe(tableTotal);
  });
});
