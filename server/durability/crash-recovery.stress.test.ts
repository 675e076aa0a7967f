// Engine: SQLite only: the SQLite file under SIGKILL and backups taken during the load; PostgreSQL's are
// server/http/postgres-outage-drill.test.ts (the database stopped under writes) and
// server/http/postgres-load-api.test.ts (two servers under load).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCrashDrill } from '../test-support/crash-drill.js';

const ROUNDS = Number(process.env.QUIRE_CRASH_ROUNDS ?? 8);

/** `npm run test:stress`: the long crash drill (8 rounds of 32 writing clients by default). */
describe('a server killed with SIGKILL during concurrent writes, round after round', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`keeps every acknowledged write and an intact database across ${ROUNDS} kills`, async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-crash-'));
    const report = await runCrashDrill({
      dbFile: join(dir, 'content.sqlite'),
      rounds: ROUNDS,
      clients: 32,
      killAfterMs: [500, 2000],
    });
    console.log(
      `crash drill: ${ROUNDS} SIGKILLs, ${report.acknowledged} acknowledged writes, ${report.unanswered} cut off, ` +
        `${report.tableTotal} rows at the end, integrity ${[...new Set(report.integrity)].join('/')}`,
    );
    expect(report.acknowledged).toBeGreaterThan(ROUNDS * 32);
    expect(report.serverErrors).toBe('');
    expect(report.unexpectedAnswers).toEqual([]);
    expect(report.mismatches).toEqual([]);
    expect(report.integrity).toEqual(Array(ROUNDS + 1).fill('ok'));
    expect(report.apiTotal).toBe(report.tableTotal);
  });
});
