// Engine: both in one run: the media library carried by `quire copy` from SQLite to a PostgreSQL
// database of its own and back (backups of PostgreSQL are made by the same copy; a SQLite backup
// is the whole file).

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copySite } from '../backup/site-copy-service.js';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { type AssetRecord, AssetRepository } from '../db/repositories/asset-repository.js';
import { createTestDatabase, postgresForTests, skipNote } from '../test-support/postgres.js';

const postgres = await postgresForTests();

const ASSET: AssetRecord = {
  id: '5f0c2d9e-7f51-4d8e-9a3c-0c1d2e3f4a5b',
  path: '/media/2026/11/019a0000-0000-7000-8000-000000000001.png',
  file_name: 'harbour at dawn.png',
  media_type: 'image/png',
  size: 2400,
  width: 1200,
  height: 800,
  content_hash: 'a'.repeat(64),
  alt: 'The harbour at dawn',
  caption: 'Früh am Hafen',
  credit: 'Ann Lee',
  focal_x: 0.3,
  focal_y: 0.65,
  folder: 'harbour',
  uploaded_by: 'ada',
  uploaded_at: '2026-11-02 08:00:00.000000',
  updated_at: '2026-11-03 09:30:00.000000',
};

describe.skipIf(!postgres.available)(`quire copy carries the media library${skipNote(postgres)}`, () => {
  it('from SQLite to PostgreSQL and back: every asset with its description, as stored', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-assets-copy-'));
    const pg = await createTestDatabase(postgres.url);
    const source = await openDatabase(join(dir, 'source.sqlite'));
    const middle = await openPostgresDatabase(pg.target);
    const back = await openDatabase(join(dir, 'back.sqlite'));
    try {
      await new AssetRepository(source.db).insert(ASSET);
      await copySite(source, middle, { force: true });
      await copySite(middle, back, { force: true });
      for (const copy of [middle, back]) {
        expect(await new AssetRepository(copy.db).findById(ASSET.id)).toEqual(ASSET);
        expect(await new AssetRepository(copy.db).count()).toBe(1);
      }
    } finally {
      await Promise.all([source.close(), middle.close(), back.close()]);
      await pg.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
