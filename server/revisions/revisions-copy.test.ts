// Engine: both in one run: it copies a SQLite test server's site to a PostgreSQL database of its own (skipped, saying
// why, without PostgreSQL) and back.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { copySite } from '../backup/site-copy-service.js';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../db/database.js';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { request } from '../test-support/api-scenario.js';
import { createTestDatabase, postgresForTests, skipNote } from '../test-support/postgres.js';
import { newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

const postgres = await postgresForTests();

/** Every stored revision and content-type change of a database, ids as numbers, in id order. */
async function history(database: QuireDb) {
  const read = async (table: string) =>
    (await sql<Record<string, unknown>>`select * from ${sql.table(table)} order by id`.execute(database.db)).rows.map(
      (row) => ({ ...row, id: Number(row.id) }),
    );
  return { revisions: await read('quire_revisions'), changes: await read('quire_type_changes') };
}

/** A SQLite site with a history: a row changed twice, one in the trash, a content type made. */
async function siteWithHistory(server: TestServer): Promise<{ kept: string; binned: string }> {
  const send = async (method: string, url: string, json?: unknown) => {
    const { response, body, text } = await request(server, method, url, json === undefined ? {} : { json });
    expect(response.status, text).toBeLessThan(300);
    return body;
  };
  const kept = (await send('POST', '/cms/news', newsBody({ title: 'Kept' }))).id as string;
  await send('PUT', `/cms/news/${kept}`, { title: 'Kept, changed' });
  // A restore: its revision's origin and the time of the version it put back travel with it.
  const first = (await send('GET', `/cms/news/${kept}/revisions`)).revisions.at(-1).id as number;
  await send('POST', `/cms/news/${kept}/revisions/${first}/restore`);
  const binned = (await send('POST', '/cms/news', newsBody({ title: 'Binned' }))).id as string;
  await send('DELETE', `/cms/news/${binned}`);
  await send('POST', '/cms-content', {
    title: 'Notes',
    columns: [{ name: 'name', label: 'Name', type: 'text', required: true }],
  });
  return { kept, binned };
}

describe('backups carry revisions', () => {
  it('a SQLite backup restored through the restore checks keeps every revision and the trash', async () => {
    const server = await startTestServer();
    const dir = await mkdtemp(join(tmpdir(), 'quire-revisions-backup-'));
    try {
      expect(server.engine).toBe('sqlite'); // the SQLite file itself (PostgreSQL: the copy below)
      await siteWithHistory(server);
      const expected = await history(server.database);
      await server.stop();
      const restored = join(dir, 'restored.sqlite');
      await restoreDatabase(await backupFile(server.dbFile), restored);
      const again = await openDatabase(restored);
      try {
        expect(await history(again)).toEqual(expected);
      } finally {
        await again.close();
      }
    } finally {
      await server.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgres.available)(`quire copy carries revisions${skipNote(postgres)}`, () => {
  it('from SQLite to PostgreSQL and back: the same history, the trash restorable, new revisions numbered after', async () => {
    const server = await startTestServer();
    const pg = await createTestDatabase(postgres.url);
    let onPostgres: TestServer | null = null;
    const dir = await mkdtemp(join(tmpdir(), 'quire-revisions-copy-'));
    try {
      const { kept, binned } = await siteWithHistory(server);
      const expected = await history(server.database);
      expect(expected.revisions).toHaveLength(5);
      expect(
        expected.revisions.filter((revision: Record<string, unknown>) => revision.origin === 'restore'),
      ).toHaveLength(1);
      await server.stop();
      const source = await openDatabase(server.dbFile);
      const middle = await openPostgresDatabase(pg.target);
      try {
        await copySite(source, middle, { force: true });
        expect(await history(middle)).toEqual(expected);
      } finally {
        await Promise.all([source.close(), middle.close()]);
      }

      onPostgres = await startTestServer({ dir, postgresDatabase: pg });
      const trash = await request(onPostgres, 'GET', '/cms/news/trash');
      expect(trash.body.rows.map((row: { id: string }) => row.id)).toEqual([binned]);
      const restored = await request(onPostgres, 'POST', `/cms/news/trash/${binned}/restore`);
      expect(restored.response.status, restored.text).toBe(200);
      // PostgreSQL numbers the next revision after the copied ones.
      const largest = Math.max(...expected.revisions.map((revision) => revision.id));
      expect(restored.body.revision.id).toBeGreaterThan(largest);
      const list = await request(onPostgres, 'GET', `/cms/news/${kept}/revisions`);
      expect(list.body.revisions.map((revision: { action: string }) => revision.action)).toEqual([
        'restore',
        'update',
        'create',
      ]);
      const [restoredKept, , createdKept] = list.body.revisions;
      expect(restoredKept).toMatchObject({ origin: 'restore', restored_from: createdKept.at });
      const afterRestore = await history(onPostgres.database);
      await onPostgres.stop();

      const middleAgain = await openPostgresDatabase(pg.target);
      const back = await openDatabase(join(dir, 'back.sqlite'));
      try {
        await copySite(middleAgain, back, { force: true });
        expect(await history(back)).toEqual(afterRestore);
      } finally {
        await Promise.all([middleAgain.close(), back.close()]);
      }
    } finally {
      await server.dispose();
      await onPostgres?.dispose();
      if (!onPostgres) await pg.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
