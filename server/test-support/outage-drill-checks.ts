import pg from 'pg';
import { expect } from 'vitest';
import { isDatabaseUnavailable, poolConfig } from '../db/postgres/postgres-connection.js';
import { ROW_NUMBER, WRITTEN_BY } from '../db/postgres/postgres-search-index.js';
import type { PostgresTarget } from '../db/postgres/postgres-url.js';
import { searchTextName } from '../db/queries/internal-names.js';
import { foldForSearch } from '../search/search-folding.js';
import { DRILL_WORD, listAll, type OutageDrillReport } from './outage-drill.js';
import { runAdmin } from './postgres.js';
import { callApi, type PostgresTestServer, startPostgresTestServer } from './postgres-server.js';
import { type PrivatePostgres, startPrivatePostgres } from './private-postgres.js';

/** A private PostgreSQL server and two Quire servers on one database of it: the drill's stage. */
export interface OutageStage {
  database: PrivatePostgres;
  /** The drill's database on it. */
  target: PostgresTarget;
  servers: PostgresTestServer[];
  dispose(): Promise<void>;
}

/** Starts the private server (from `binDir`), makes the drill's database and two servers on it. */
export async function startOutageStage(binDir: string): Promise<OutageStage> {
  const database = await startPrivatePostgres(binDir);
  const servers: PostgresTestServer[] = [];
  const dispose = async () => {
    // Closing a pool waits for its connections: start the database again if a failure left it down.
    await database.start().catch(() => {});
    for (const server of servers) await server.close();
    await database.dispose();
  };
  try {
    await runAdmin(database.target, 'create database quire_drill');
    // A short connect timeout: a stopped server refuses at once, and nothing here should wait 10 s.
    const target = { ...database.target, database: 'quire_drill', connectTimeoutSeconds: 2 };
    servers.push(await startPostgresTestServer(target), await startPostgresTestServer(target));
    return { database, target, servers, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * Everything the drill promises: no unexpected answer; every row as its answers allow; each outage
 * met by requests told the database is unavailable; both servers answering after each start;
 * both listing the same rows, search finding each, the search table matching the rows; and no
 * failure logged but the database being away.
 */
export async function expectOutageSurvived(
  stage: OutageStage,
  report: OutageDrillReport,
  minimumAcknowledged: number,
): Promise<void> {
  expect(report.unexpected, stage.database.log()).toEqual([]);
  expect(report.mismatches).toEqual([]);
  expect(report.acknowledged).toBeGreaterThan(minimumAcknowledged);
  for (const refused of report.refusedWhileDown) expect(refused).toBeGreaterThan(0);
  for (const round of report.recoveryMs) for (const ms of round) expect(ms).not.toBeNull();

  expect(await listAll(stage.servers[1])).toEqual(report.finalRows);
  for (const server of stage.servers) {
    const search = await callApi(server, 'GET', `/cms/news?limit=0&filter=${encodeURIComponent('search=über')}`);
    expect(search.status).toBe(200);
    expect(search.body.filtered).toBe(report.finalRows.size);
  }
  await expectSearchTableMatchesRows(stage.target, report.finalRows.size);

  for (const server of stage.servers) {
    expect(server.errors.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
  }
}

/** The search side table has one row per content row, holding the folded text of each search column. */
async function expectSearchTableMatchesRows(target: PostgresTarget, rowCount: number): Promise<void> {
  const side = `"${searchTextName('news')}"`;
  const client = new pg.Client(poolConfig(target));
  await client.connect();
  try {
    const rows = await client.query<{ row: Record<string, unknown>; side: Record<string, unknown> | null }>(
      `select to_jsonb(n) as row, to_jsonb(s) as side from news n left join ${side} s on s.id = n.id`,
    );
    expect(rows.rows).toHaveLength(rowCount);
    for (const { row, side } of rows.rows) {
      expect(row.title).toContain(DRILL_WORD);
      expect(side, String(row.id)).not.toBeNull();
      expect(Object.keys(side ?? {})).toContain('title');
      for (const [column, folded] of Object.entries(side ?? {})) {
        // The id, and the row number and writing transaction the in-memory index reads.
        if (column === 'id' || column === ROW_NUMBER || column === WRITTEN_BY) continue;
        const value = row[column];
        expect(folded, `${row.id}.${column}`).toBe(value === null ? null : foldForSearch(String(value)));
      }
    }
    const orphans = await client.query(`select s.id from ${side} s left join news n using (id) where n.id is null`);
    expect(orphans.rows).toEqual([]);
  } finally {
    await client.end();
  }
}
