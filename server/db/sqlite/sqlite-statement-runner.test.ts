import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../database.js';

// `pragma temp_store`: 0 = the build's default (files here), 2 = memory.
const tempStore = (database: SqliteQuireDb) => database.raw.pragma('temp_store', { simple: true });

describe('SQLite group-commit transactions', () => {
  let dir: string;
  let database: SqliteQuireDb;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-runner-'));
    database = await openDatabase(join(dir, 'content.sqlite'));
    database.raw.exec('create table runner_test (value text)');
  });
  afterEach(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps a batch savepoints journal in memory, and only for the batch', () => {
    const { transaction } = database.runner;
    expect(tempStore(database)).toBe(0);
    transaction.begin();
    expect(tempStore(database)).toBe(2);
    transaction.savepoint();
    database.raw.exec("insert into runner_test values ('1')");
    transaction.release();
    transaction.commit();
    expect(tempStore(database)).toBe(0);
    expect(database.raw.prepare('select value from runner_test').pluck().get()).toBe('1');

    transaction.begin();
    transaction.savepoint();
    database.raw.exec("update runner_test set value = '2'");
    transaction.undo();
    transaction.rollback();
    expect(tempStore(database)).toBe(0);
    expect(database.raw.prepare('select value from runner_test').pluck().get()).toBe('1');
  });

  it('puts temp storage back when a batch cannot begin', async () => {
    const { transaction } = database.runner;
    // Another process holds the write lock past the busy timeout: BEGIN IMMEDIATE fails.
    const other = await openDatabase(join(dir, 'content.sqlite'));
    try {
      database.raw.pragma('busy_timeout = 0');
      other.raw.exec('begin immediate');
      expect(() => transaction.begin()).toThrow(/locked|busy/i);
      expect(transaction.open).toBe(false);
      expect(tempStore(database)).toBe(0);
    } finally {
      other.raw.exec('rollback');
      await other.close();
    }
  });
});
