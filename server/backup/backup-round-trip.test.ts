// Engine: SQLite only: backups and restores of the SQLite file itself; PostgreSQL's backup, restore and import are
// server/backup/postgres-backup.test.ts and server/import/import-postgres.test.ts.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { request } from '../test-support/api-scenario.js';
import { pngImage } from '../test-support/sample-images.js';
import { startTestServer } from '../test-support/test-server.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-round-trip-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Every schema object's name and SQL, sorted: to compare two databases' schemas. */
function schemaOf(file: string): string[] {
  const raw = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = raw.prepare('select type, name, sql from sqlite_master').all() as Record<string, unknown>[];
    return rows.map((row) => `${row.type} ${row.name}: ${row.sql}`).sort();
  } finally {
    raw.close();
  }
}

describe('a backup of a database Quire wrote, restored elsewhere', () => {
  it('comes back whole: edited content types, rows, uploads, the same schema, served again', async () => {
    const dbFile = join(dir, 'live', 'content.sqlite');
    const server = await startTestServer({ dir: join(dir, 'live'), dbFile });
    let backup: string;
    let imagePath: string;
    try {
      const events = [
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
        { name: 'day', label: 'Day', type: 'date', required: false },
        { name: 'seats', label: 'Seats', type: 'number', required: false },
      ];
      expect(
        (await request(server, 'POST', '/cms-content', { json: { title: 'Events', columns: events } })).response.status,
      ).toBe(201);
      // Renamed, reordered, one removed, one added: the table is altered, its indexes rebuilt.
      const edited = [
        { name: 'when', label: 'When', type: 'date', required: false, from: 'day' },
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
        { name: 'free', label: 'Free', type: 'boolean', required: false },
      ];
      const put = await request(server, 'PUT', '/cms-content/events', { json: { columns: edited } });
      expect(put.response.status, JSON.stringify(put.body)).toBe(200);
      expect(
        (await request(server, 'POST', '/cms/events/fair', { json: { name: 'Fair', when: '2026-05-01' } })).response
          .status,
      ).toBe(201);

      const form = new FormData();
      form.append('file', new Blob([pngImage()]), 'a.png');
      imagePath = (
        (await (await fetch(`${server.api}/uploads`, { method: 'POST', body: form })).json()) as { path: string }
      ).path;
      const article = await request(server, 'POST', '/cms/articles/hello', {
        json: {
          title: 'Hello',
          status: 'draft',
          published_at: '2026-01-01 10:00:00',
          image: imagePath,
          body: `![x](${imagePath})`,
        },
      });
      expect(article.response.status, JSON.stringify(article.body)).toBe(201);
      backup = await backupFile(dbFile);
    } finally {
      await server.stop();
    }

    const restored = join(dir, 'elsewhere', 'content.sqlite');
    const { mediaFiles } = await restoreDatabase(backup, restored);
    expect(mediaFiles).toBe(1);
    expect(schemaOf(restored)).toEqual(schemaOf(dbFile));

    const again = await startTestServer({ dir: join(dir, 'elsewhere'), dbFile: restored });
    try {
      const fair = await request(again, 'GET', '/cms/events/fair');
      expect(fair.body.rows[0]).toMatchObject({ name: 'Fair', when: '2026-05-01' });
      const hello = await request(again, 'GET', '/cms/articles/hello');
      expect(hello.body.rows[0]).toMatchObject({ image: imagePath });
      const image = await fetch(`${again.origin}${imagePath}`);
      expect(Buffer.from(await image.arrayBuffer())).toEqual(pngImage());
      expect(readFileSync(join(dir, 'elsewhere', imagePath))).toEqual(pngImage());
    } finally {
      await again.stop();
    }
  });
});
