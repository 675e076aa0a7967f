import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';
import { SAFETY_NET_PAGES, startCheckpointer } from './sqlite-checkpointer.js';
import { openSqlite } from './sqlite-dialect.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-checkpointer-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Commits about 300 pages (fewer than SQLite's own 1,000-page checkpoint) into the WAL. */
function writePages(database: SqliteQuireDb): void {
  database.raw.exec('create table filler (id integer primary key, text text)');
  const insert = database.raw.prepare('insert into filler (text) values (?)');
  database.raw.transaction(() => {
    for (let i = 0; i < 300; i++) insert.run('x'.repeat(3_900));
  })();
}

async function until(check: () => boolean, timeoutMs = 5_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('WAL checkpoints in a worker', () => {
  it("moves committed pages into the database file while the server's connection only writes", async () => {
    const file = join(dir, 'content.sqlite');
    const database = await openDatabase(file, { checkpointWorker: {} });
    try {
      expect(await until(() => database.raw.pragma('wal_autocheckpoint', { simple: true }) === SAFETY_NET_PAGES)).toBe(
        true,
      );
      const before = statSync(file).size;
      writePages(database);
      // SQLite's own checkpoint would not run below 1,000 pages: the file grows by the worker's.
      expect(await until(() => statSync(file).size > before + 1_000_000)).toBe(true);
    } finally {
      await database.close();
    }
    expect(existsSync(`${file}-wal`)).toBe(false);
    const reopened = openSqlite(file);
    expect(reopened.raw.prepare('select count(*) from filler').pluck().get()).toBe(300);
    reopened.raw.close();
  });

  it('leaves checkpoints to SQLite when the worker cannot start, and says why once', async () => {
    const file = join(dir, 'content.sqlite');
    const { raw } = openSqlite(file);
    raw.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
    const failures: unknown[] = [];
    const checkpointer = startCheckpointer(raw, file, {
      module: join(dir, 'missing-better-sqlite3.js'),
      onFailure: (error) => failures.push(error),
    });
    expect(await checkpointer.started).toBe(false);
    expect(raw.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    expect(failures).toHaveLength(1);
    expect(String((failures[0] as Error).message)).toContain('missing-better-sqlite3');
    await checkpointer.stop();
    raw.close();
  });

  it('is not started for a database opened without it (commands, tools)', async () => {
    const database = await openDatabase(join(dir, 'content.sqlite'));
    try {
      expect(database.raw.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
    } finally {
      await database.close();
    }
  });
});
