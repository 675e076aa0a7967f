import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { openDatabase, type SqliteQuireDb } from '../db/database.js';
import { ChangeTokenSharing } from '../db/queries/change-token-sharing.js';

/**
 * Row reads arriving together share one check for other processes' commits (`pragma data_version`);
 * a commit by another connection must still be seen by the next request, however the reads batch.
 */

let dir: string;
let database: SqliteQuireDb;
let other: SqliteQuireDb;
let server: Server;
let base: string;
let firstId: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-fresh-'));
  const file = join(dir, 'content.sqlite');
  database = await openDatabase(file);
  // A second connection to the same file stands for another process (an import, a restore).
  other = await openDatabase(file);
  const { services, listener } = await createApp({ database, editorName: 'tester', log: () => {} });
  const news = services.registry.requireByTable('news');
  for (const title of ['One', 'Two']) {
    const row = await services.rows.create(news, { title, status: 'published', published_at: '2025-01-01 10:00:00' });
    firstId ??= row.id;
  }
  // The other connection's inserts below block the event loop while they wait for the write lock:
  // the databases' background start-up (which writes across awaits) is over first.
  await Promise.all([database.ready, other.ready]);
  server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.close();
  await other?.close();
  await database?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface RowAnswer {
  total: number;
  rows: { title: string }[];
}

const getRow = async (id: string): Promise<RowAnswer> =>
  (await (await fetch(`${base}/api/cms/news/${id}`)).json()) as RowAnswer;

describe('reads sharing the check for other processes commits', () => {
  it('see a commit by another connection on the next request, also after batches of parallel reads', async () => {
    for (let round = 0; round < 5; round++) {
      // Many reads at once: they arrive in the same turns and answer as batches.
      const before = await Promise.all(Array.from({ length: 16 }, () => getRow(firstId)));
      const total = before[0].total;
      expect(before.every((body) => body.total === total)).toBe(true);
      other.raw
        .prepare(
          `insert into news (id, title, slug, status, published_at, created_at, updated_at) values (?, 'External', ?, 'published', '2025-01-01 10:00:00', 'x', 'x')`,
        )
        .run(`external-${round}`, `external-${round}`);
      // The next request counts the row the other connection committed, and reads it.
      expect((await getRow(firstId)).total).toBe(total + 1);
      expect((await getRow(`external-${round}`)).rows[0].title).toBe('External');
      other.raw.prepare(`update news set title = 'Changed' where id = ?`).run(`external-${round}`);
      expect((await getRow(`external-${round}`)).rows[0].title).toBe('Changed');
    }
  });
});

describe('ChangeTokenSharing', () => {
  it('reads every time outside a batch, and inside one only until another request arrives', async () => {
    const sharing = new ChangeTokenSharing();
    let reads = 0;
    const token = sharing.shared(() => ++reads);
    expect([token(), token()]).toEqual([1, 2]);
    let seen: number[] = [];
    let finish: () => void = () => {};
    sharing.shareBatch(() => {
      seen = [token(), token()];
      return [new Promise<void>((resolve) => (finish = resolve))];
    });
    expect(seen).toEqual([3, 3]);
    expect(token()).toBe(3);
    sharing.requestArrived();
    expect([token(), token()]).toEqual([4, 4]);
    finish();
    await new Promise((resolve) => setImmediate(resolve));
    // The batch has settled: nothing is shared any more.
    expect([token(), token()]).toEqual([5, 6]);
  });

  it("belongs to one connection: another instance's batches do not share its token", () => {
    const mine = new ChangeTokenSharing();
    const other = new ChangeTokenSharing();
    let reads = 0;
    const token = mine.shared(() => ++reads);
    other.shareBatch(() => {
      expect([token(), token()]).toEqual([1, 2]);
      return [new Promise<void>(() => {})];
    });
  });
});
