// Engine: SQLite only: the SQLite file under SIGKILL and backups taken during the load; PostgreSQL's are
// server/http/postgres-outage-drill.test.ts (the database stopped under writes) and
// server/http/postgres-load-api.test.ts (two servers under load).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runLoadDrill } from '../test-support/load-drill.js';

/** The short load run of the normal suite; `npm run test:stress` runs 64 clients for 30 s (load.stress.test.ts). */
describe('a server under concurrent reads and writes', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers every request without a 5xx or a busy database, while a backup runs', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-load-'));
    const { load, backups, serverErrors, apiTotal, tableTotal } = await runLoadDrill({
      dbFile: join(dir, 'content.sqlite'),
      clients: 16,
      durationMs: 3_000,
      backupEveryMs: 1_000,
    });
    expect(load.writes).toBeGreaterThan(0);
    expect(load.reads).toBeGreaterThan(0);
    expect(load.failures).toEqual([]);
    expect(load.busy).toEqual([]);
    expect(Object.keys(load.byStatus).every((status) => Number(status) < 500)).toBe(true);
    expect(backups).toBeGreaterThan(0);
    expect(serverErrors).toBe('');
    expect(apiTotal).toBe(tableTotal);
  }, 60_000);
});
