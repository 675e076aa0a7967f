import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuditService } from './audit/audit-service.js';
import { listBackups } from './backup/backup-service.js';
import { main } from './cli-commands.js';
import { openDatabase } from './db/database.js';
import { withRecursiveView } from './test-support/hostile-databases.js';

/** `quire backup` and `quire restore`: one line on success or failure, exit codes 0, 1 (failed), 2 (usage). */
describe('quire backup / quire restore', () => {
  let dir: string;
  let dbFile: string;
  let out: string[];
  let err: string[];
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-cli-backup-'));
    dbFile = join(dir, 'content.sqlite');
    await (await openDatabase(dbFile)).close();
    out = [];
    err = [];
    vi.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
    vi.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  });
  afterEach(() => {
    vi.restoreAllMocks();
    rmSync(dir, { recursive: true, force: true });
  });

  it('backup writes a backup beside the database and says where, in one line', async () => {
    expect(await main(['backup', '--db', dbFile], {})).toBe(0);
    const [backup] = listBackups(dbFile);
    expect(out).toEqual([`Backed up ${dbFile} and its media to ${backup}`]);
    expect(err).toEqual([]);
  });

  it('restore puts a backup back and names the backup of the replaced database', async () => {
    await main(['backup', '--db', dbFile], {});
    const [backup] = listBackups(dbFile);
    expect(await main(['restore', backup, '--db', dbFile], {})).toBe(0);
    expect(out[1]).toMatch(
      new RegExp(
        `^Restored ${dbFile} and 0 media files from ${backup}; the previous database and media were kept in .*-before-restore$`,
      ),
    );
    expect(err).toEqual([]);
    // The restored database's audit log says so.
    const restored = await openDatabase(dbFile);
    try {
      const { events } = await new AuditService({ db: restored.db }).list(
        { action: 'backup.restored' },
        { limit: 5, offset: 0 },
      );
      expect(events).toEqual([expect.objectContaining({ actor: 'cli', address: null, target: backup })]);
      expect(events[0]?.detail).toEqual({ engine: 'sqlite', media: 0 });
    } finally {
      await restored.close();
    }
  });

  it('restore of a file that is not a Quire database fails with one line and exit code 1', async () => {
    const junk = join(dir, 'junk.sqlite');
    writeFileSync(junk, 'not a database'.repeat(100));
    expect(await main(['restore', junk, '--db', dbFile], {})).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^quire: .*junk\.sqlite is not a valid Quire database: it is not a SQLite database$/);
    expect(err[0]).not.toContain('\n');
  });

  it('restore of a database Quire did not write (a recursive view) says why in one line, exit code 1', async () => {
    const hostile = await withRecursiveView(join(dir, 'hostile.sqlite'));
    expect(await main(['restore', hostile, '--db', dbFile], {})).toBe(1);
    expect(err).toEqual([
      `quire: ${hostile} cannot be restored: it has a view "categories", and Quire never creates views; nothing was changed`,
    ]);
  });

  it('restore without a backup, or with two, is a usage error (exit code 2)', async () => {
    expect(await main(['restore', '--db', dbFile], {})).toBe(2);
    expect(await main(['restore', 'a', 'b'], {})).toBe(2);
    expect(err.every((line) => line.startsWith('quire: restore needs one BACKUP'))).toBe(true);
  });

  it('backup of a missing database fails with one line', async () => {
    expect(await main(['backup', '--db', join(dir, 'missing.sqlite')], {})).toBe(1);
    expect(err).toEqual([`quire: There is no database file at ${join(dir, 'missing.sqlite')}`]);
  });
});
