// Engine: PostgreSQL only: it stops and starts PostgreSQL under the writes of two servers sharing a database of its
// own.

import { afterAll, beforeAll, describe, it } from 'vitest';
import { runOutageDrill } from '../test-support/outage-drill.js';
import { expectOutageSurvived, type OutageStage, startOutageStage } from '../test-support/outage-drill-checks.js';
import { privatePostgresSupport } from '../test-support/private-postgres.js';

const ROUNDS = Number(process.env.QUIRE_OUTAGE_ROUNDS ?? 6);

/**
 * `npm run test:stress`: the long outage drill (6 rounds of 16 writing clients through two servers
 * by default), PostgreSQL stopped by turns with `-m immediate` and `-m fast`, and kept down for a
 * different time each round. The short one is postgres-outage-drill.test.ts.
 */

const support = privatePostgresSupport();
const skip = support.available ? '' : ` (skipped: ${support.reason})`;

describe.skipIf(!support.available)(`two servers while PostgreSQL stops ${ROUNDS} times${skip}`, () => {
  let stage: OutageStage;

  beforeAll(async () => {
    if (support.available) stage = await startOutageStage(support.binDir);
  });
  afterAll(async () => {
    await stage?.dispose();
  });

  it(`keeps every acknowledged write and serves again after each of ${ROUNDS} stops`, async () => {
    const report = await runOutageDrill({
      servers: stage.servers,
      clients: 16,
      rounds: ROUNDS,
      upMs: 2_000,
      downMs: [500, 3_000],
      stopDatabase: (round) => stage.database.stop(round % 2 === 0 ? 'immediate' : 'fast'),
      startDatabase: () => stage.database.start(),
      recoveryTimeoutMs: 30_000,
    });
    console.log(
      `outage drill: ${ROUNDS} stops, ${report.acknowledged} acknowledged writes, ${report.refused} refused, ` +
        `${report.unknown} of unknown outcome, ${report.finalRows.size} rows at the end, ` +
        `recovered in ${report.recoveryMs.flat().join('/')} ms`,
    );
    await expectOutageSurvived(stage, report, ROUNDS * 16);
  });
});
