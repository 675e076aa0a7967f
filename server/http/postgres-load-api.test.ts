// Engine: PostgreSQL only: two servers on one PostgreSQL database of its own under load.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchTextName } from '../db/queries/internal-names.js';
import { runLoad } from '../test-support/load-run.js';
import { listAll } from '../test-support/outage-drill.js';
import { postgresForTests, runAdmin, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * Rows under concurrency on PostgreSQL: two servers on one database take the load run's mixed
 * reads and writes (lists, search, single rows, creates, updates, deletes) from 16 clients at
 * once. No request gets a 5xx or goes unanswered, and afterwards both servers count and list
 * exactly the rows in the table, each with its search text. (SQLite's own run, with backups
 * taken meanwhile, is durability/load.test.ts.)
 */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(
  `two PostgreSQL servers under concurrent reads and writes${skipNote(postgres)}`,
  () => {
    const database = useTestDatabase(postgres.url);
    const servers: PostgresTestServer[] = [];

    beforeAll(async () => {
      servers.push(await startPostgresTestServer(database().target), await startPostgresTestServer(database().target));
    });
    afterAll(async () => {
      for (const server of servers) await server.close();
    });

    it('answers every request without a 5xx, and both servers count exactly the rows stored', async () => {
      const reports = await Promise.all(
        servers.map((server) => runLoad({ api: server.api, clients: 8, durationMs: 3_000 })),
      );
      for (const load of reports) {
        expect(load.writes).toBeGreaterThan(0);
        expect(load.reads).toBeGreaterThan(0);
        expect(load.failures).toEqual([]);
        expect(Object.keys(load.byStatus).every((status) => Number(status) < 500)).toBe(true);
      }

      const stored = await runAdmin(
        database().target,
        `select (select count(*) from news) as rows, (select count(*) from "${searchTextName('news')}") as indexed`,
      );
      const tableTotal = Number(stored.rows[0].rows);
      expect(Number(stored.rows[0].indexed)).toBe(tableTotal);
      const listed = await Promise.all(servers.map((server) => listAll(server)));
      expect(listed[0].size).toBe(tableTotal);
      expect(listed[1]).toEqual(listed[0]);
      for (const server of servers) {
        const counted = await fetch(`${server.api}/cms/news?limit=0`);
        expect(((await counted.json()) as { total: number }).total).toBe(tableTotal);
        expect(server.errors).toEqual([]);
      }
    }, 60_000);
  },
);
