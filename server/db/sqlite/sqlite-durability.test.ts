// Engine: SQLite only: SQLite's journal mode and synchronous setting.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test-support/test-server.js';
import { openDatabase, requireSqlite } from '../database.js';

/** better-sqlite3 builds default WAL to synchronous=NORMAL; Quire must run with FULL. */
describe('SQLite durability settings', () => {
  let dir: string;
  let server: TestServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-pragmas-'));
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('opens a database in WAL mode with synchronous=FULL', async () => {
    const database = await openDatabase(join(dir, 'content.sqlite'));
    try {
      expect(database.raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(database.raw.pragma('synchronous', { simple: true })).toBe(2); // 2 = FULL
    } finally {
      await database.close();
    }
  });

  it('serves with the same settings on its connection', () => {
    expect(requireSqlite(server.database, 'this check').raw.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(requireSqlite(server.database, 'this check').raw.pragma('synchronous', { simple: true })).toBe(2);
    expect(requireSqlite(server.database, 'this check').raw.pragma('busy_timeout', { simple: true })).toBeGreaterThan(
      0,
    );
  });
});
