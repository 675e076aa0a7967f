import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { quireDatabase, tamper } from '../../test-support/hostile-databases.js';
import { restoreDatabase } from './sqlite-restore.js';

/**
 * Indexes on Quire's own tables (beyond the registry): a migration may make one (accounts do), so a
 * restore keeps the ones a fresh database has and refuses any other, once the copy is migrated.
 */

let dir: string;
let dbFile: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-own-indexes-'));
  dbFile = await quireDatabase(join(dir, 'content.sqlite'));
  mkdirSync(join(dir, 'hostile'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('restore and the indexes of Quire’s own tables', () => {
  it('refuses an index a fresh database does not have, changing nothing', async () => {
    const file = tamper(
      await quireDatabase(join(dir, 'hostile', 'backup.sqlite')),
      'create index "quire_extra" on quire_registry_version (version);',
    );
    const failure = await restoreDatabase(file, dbFile).catch((error: Error) => error);
    expect((failure as Error).message).toBe(
      `${file} cannot be restored: its index "quire_extra" on "quire_registry_version" is not the one Quire writes; nothing was changed`,
    );
  });

  it('still refuses an index not named as Quire names its own before anything is migrated', async () => {
    const file = tamper(
      await quireDatabase(join(dir, 'hostile', 'backup.sqlite')),
      'create index "extra" on quire_registry_version (version);',
    );
    const failure = await restoreDatabase(file, dbFile).catch((error: Error) => error);
    expect((failure as Error).message).toBe(
      `${file} cannot be restored: it has an index "extra" on "quire_registry_version" that Quire did not write; nothing was changed`,
    );
  });

  it('restores a database with exactly the own-table indexes a fresh one has', async () => {
    const file = await quireDatabase(join(dir, 'hostile', 'backup.sqlite'));
    await expect(restoreDatabase(file, dbFile)).resolves.toMatchObject({ mediaFiles: null });
  });
});
