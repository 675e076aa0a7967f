// Engine: both in one run: it restores a SQLite test server's backup, and copies its site to a PostgreSQL database of
// its own (skipped, saying why, without PostgreSQL).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../db/database.js';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { request } from '../test-support/api-scenario.js';
import { createTestDatabase, postgresForTests, skipNote } from '../test-support/postgres.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { copySite } from './site-copy-service.js';

/**
 * A site with localized columns keeps its locale columns and every locale's values through a
 * restore of its backup (whose checks hold the tables against what Quire writes under the
 * backup's own locales) and through `quire copy` to PostgreSQL.
 */

const postgres = await postgresForTests();

const LOCALES = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};

/** A SQLite site with a localized type and a row translated into German. */
async function localizedSite(server: TestServer): Promise<void> {
  const send = async (method: string, url: string, json: unknown) => {
    const { response, body, text } = await request(server, method, url, { json });
    expect(response.status, text).toBeLessThan(300);
    return body;
  };
  await send('PUT', '/locales', LOCALES);
  await send('POST', '/cms-content', {
    title: 'Ports',
    columns: [
      { name: 'title', label: 'Title', type: 'text', required: true, localized: true },
      { name: 'note', label: 'Note', type: 'textarea', required: false, localized: true },
    ],
  });
  const created = await send('POST', '/cms/ports', { title: 'Harbour', note: 'Quay' });
  await send('PUT', `/cms/ports/${created.rows[0].id}?locale=de`, { title: 'Hafen' });
}

/** Every stored row of the ports table, its columns sorted, PostgreSQL's order key columns aside. */
async function storedPorts(database: QuireDb): Promise<Record<string, unknown>[]> {
  const rows = (await sql<Record<string, unknown>>`select * from ports order by id`.execute(database.db)).rows;
  return rows.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .filter(([name]) => !name.startsWith('quire_key:'))
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  );
}

describe('a site with localized columns', () => {
  it('is restored from its backup with every locale column and value', async () => {
    const server = await startTestServer();
    const dir = await mkdtemp(join(tmpdir(), 'quire-localized-backup-'));
    try {
      expect(server.engine).toBe('sqlite'); // the SQLite file itself (PostgreSQL: the copy below)
      await localizedSite(server);
      const expected = await storedPorts(server.database);
      expect(expected[0]).toMatchObject({
        title: 'Harbour',
        'quire_loc:de:title': 'Hafen',
        'quire_loc:de:note': 'Quay',
        'quire_missing:de': '{"note":"en"}',
      });
      await server.stop();
      const restored = join(dir, 'restored.sqlite');
      await restoreDatabase(await backupFile(server.dbFile), restored);
      const again = await openDatabase(restored);
      try {
        expect(await storedPorts(again)).toEqual(expected);
      } finally {
        await again.close();
      }
    } finally {
      await server.dispose();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!postgres.available)(`is copied to PostgreSQL with them${skipNote(postgres)}`, async () => {
    const server = await startTestServer();
    const pg = await createTestDatabase(postgres.url);
    let onPostgres: TestServer | null = null;
    const dir = await mkdtemp(join(tmpdir(), 'quire-localized-copy-'));
    try {
      await localizedSite(server);
      const expected = await storedPorts(server.database);
      await server.stop();
      const source = await openDatabase(server.dbFile);
      const target = await openPostgresDatabase(pg.target);
      try {
        await copySite(source, target, { force: true });
        expect(await storedPorts(target)).toEqual(expected);
      } finally {
        await Promise.all([source.close(), target.close()]);
      }
      onPostgres = await startTestServer({ dir, postgresDatabase: pg });
      const read = await request(onPostgres, 'GET', '/cms/ports?locale=de');
      expect(read.body.rows[0]).toMatchObject({
        title: 'Hafen',
        note: 'Quay',
        locale: 'de',
        fallbacks: { note: 'en' },
      });
    } finally {
      await server.dispose();
      await onPostgres?.dispose();
      if (!onPostgres) await pg.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
