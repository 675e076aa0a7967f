// Engine: SQLite only: the SQLite file under SIGKILL and backups taken during the load; PostgreSQL's are
// server/http/postgres-outage-drill.test.ts (the database stopped under writes) and
// server/http/postgres-load-api.test.ts (two servers under load).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrashDrill } from '../test-support/crash-drill.js';

/**
 * The short crash drill of the normal suite; `npm run test:stress` runs the long one
 * (crash-recovery.stress.test.ts).
 */
describe('a server killed with SIGKILL during concurrent writes', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps every acknowledged write and an intact database after each restart', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-crash-'));
    const report = await runCrashDrill({
      dbFile: join(dir, 'content.sqlite'),
      rounds: 2,
      clients: 8,
      killAfterMs: [300, 600],
      entry: 'built',
    });
    expect(report.acknowledged).toBeGreaterThan(0);
    expect(report.serverErrors).toBe('');
    expect(report.unexpectedAnswers).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.integrity).toEqual(['ok', 'ok', 'ok']);
    expect(report.apiTotal).toBe(report.tableTotal);
  }, 60_000);
});
