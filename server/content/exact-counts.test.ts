// Engine: SQLite only: SQLite's read cache against another connection's commits; PostgreSQL has no read cache (several
// servers share the database), and its counts through the API are checked by list-api, api-fuzz and postgres-load-api.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type SqliteQuireDb } from '../db/database.js';
import { searchPendingName } from '../db/queries/internal-names.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import type { ContentType } from './content-type.js';
import { ContentTypeRegistry } from './content-type-registry.js';
import { ContentWrites } from './content-writes.js';
import { parseListQuery } from './list-query.js';
import { RowService } from './row-service.js';

let registry: ContentTypeRegistry;
let dir: string;
let database: SqliteQuireDb;
let other: SqliteQuireDb;
let rows: RowService;
let news: ContentType;

const STATUSES = ['draft', 'published', 'archived'] as const;
const LISTS = [
  {},
  { filter: 'status=published' },
  { filter: 'status=draft' },
  { filter: 'search=über' },
  { filter: 'search=al' },
  { filter: ['status=archived', 'search=bravo'] },
  { filter: 'published_at=2025-01-01 10:00:00' },
];

/** `total` and `filtered` as the API reports them, next to COUNTs straight in SQL. */
async function expectExactCounts(): Promise<void> {
  const total = (database.raw.prepare('select count(*) as n from news').get() as { n: number }).n;
  for (const query of LISTS) {
    const options = parseListQuery(news, { ...query, limit: '5' });
    const list = await rows.list(news, options);
    const fresh = await new RowService({
      db: database.db,
      engine: database.engine,
      editorName: 'checker',
      registry,
      writes: new ContentWrites({ db: database.db }),
    }).list(news, options);
    expect(list.total, JSON.stringify(query)).toBe(total);
    expect(list.filtered, JSON.stringify(query)).toBe(fresh.filtered);
    expect(list.rows.map((row) => row.id)).toEqual(fresh.rows.map((row) => row.id));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quire-counts-'));
  const file = join(dir, 'content.sqlite');
  database = await openDatabase(file);
  // A second connection to the same file stands for another process (an import, a restore).
  other = await openDatabase(file);
  registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
  await registry.reload();
  news = registry.requireByTable('news');
  rows = new RowService({
    db: database.db,
    engine: database.engine,
    editorName: 'tester',
    registry,
    writes: new ContentWrites({ db: database.db, runner: database.runner }),
    runner: database.runner,
  });
});

afterAll(async () => {
  await other.close();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('exact counts from the read cache', () => {
  it('stay exact through creates, updates and deletes in any order', async () => {
    const titles = ['Über alles', 'alpha bravo', 'Bravo über', 'Charlie', 'ALPHA'];
    const ids: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            action: fc.constantFrom('create', 'create', 'update', 'delete'),
            pick: fc.nat(),
            status: fc.constantFrom(...STATUSES),
            title: fc.constantFrom(...titles),
          }),
          { minLength: 1, maxLength: 8 },
        ),
        async (steps) => {
          for (const step of steps) {
            if (step.action === 'create' || ids.length === 0) {
              const body = { title: step.title, status: step.status, published_at: '2025-01-01 10:00:00' };
              ids.push((await rows.create(news, body)).id);
            } else if (step.action === 'update') {
              const id = ids[step.pick % ids.length];
              await rows.update(news, id, { status: step.status, title: step.title });
            } else {
              const [id] = ids.splice(step.pick % ids.length, 1);
              await rows.delete(news, id);
            }
            await expectExactCounts();
          }
        },
      ),
      { numRuns: 25, seed: 7 },
    );
  });

  it('stay exact after a failed write (nothing changed, nothing miscounted)', async () => {
    await expectExactCounts();
    await expect(rows.create(news, { title: 'No status' })).rejects.toThrow();
    await expect(rows.update(news, 'no-such-row', { status: 'draft' })).rejects.toThrow();
    await expectExactCounts();
  });

  it('follow writes committed by another connection (import, restore)', async () => {
    await expectExactCounts();
    other.raw
      .prepare(
        `insert into news (id, title, slug, status, published_at, created_at, updated_at) values ('external-1', 'Über extern', 'uber-extern', 'published', '2025-01-01 10:00:00', 'x', 'x')`,
      )
      .run();
    await expectExactCounts();
    other.raw.prepare(`update news set status = 'draft' where id = 'external-1'`).run();
    await expectExactCounts();
    other.raw.prepare(`delete from news where id = 'external-1'`).run();
    await expectExactCounts();
  });

  it('serve a repeated list from the cache until a write (no COUNT per request)', async () => {
    const options = parseListQuery(news, { filter: 'status=published' });
    await rows.list(news, options);
    const counted: string[] = [];
    const spy = (sql: string) => {
      if (/count\(\*\)/i.test(sql)) counted.push(sql);
    };
    const original = database.runner.all;
    database.runner.all = (sql, parameters) => {
      spy(sql);
      return original(sql, parameters);
    };
    try {
      await rows.list(news, options);
      await rows.list(news, options);
      expect(counted).toEqual([]);
      await rows.create(news, { title: 'One more', status: 'published', published_at: '2025-01-02 10:00:00' });
      const after = await rows.list(news, options);
      // The create adjusted the cached counts instead of dropping them.
      expect(counted).toEqual([]);
      const sqlCount = (
        database.raw.prepare(`select count(*) as n from news where status = 'published'`).get() as { n: number }
      ).n;
      expect(after.filtered).toBe(sqlCount);
    } finally {
      database.runner.all = original;
    }
  });

  it('find new rows by search at once, and move them into the search index in one batch soon after', async () => {
    const pending = () =>
      (database.raw.prepare(`select count(*) as n from "${searchPendingName('news')}"`).get() as { n: number }).n;
    await rows.searchFlushes.flush();
    expect(pending()).toBe(0);
    const body = { status: 'draft', published_at: '2025-01-01 10:00:00' };
    await rows.create(news, { ...body, title: 'Zwölf Boxkämpfer' });
    await rows.create(news, { ...body, title: 'Zwölf Äpfel' });
    expect(pending()).toBe(2);
    const search = parseListQuery(news, { filter: 'search=ZWÖLF' });
    expect((await rows.list(news, search)).filtered).toBe(2);
    await vi.waitFor(() => expect(pending()).toBe(0), { timeout: 5000, interval: 50 });
    const after = await rows.list(news, search);
    expect(after.filtered).toBe(2);
    expect(after.rows.map((row) => row.title).sort()).toEqual(['Zwölf Boxkämpfer', 'Zwölf Äpfel']);
  });

  it('give each create with the same title the first free slug, also after deletes', async () => {
    const made = [];
    for (let i = 0; i < 4; i++) {
      made.push(await rows.create(news, { title: 'Same Title', status: 'draft', published_at: '2025-01-01 10:00:00' }));
    }
    expect(made.map((row) => row.slug)).toEqual(['same-title', 'same-title-2', 'same-title-3', 'same-title-4']);
    await rows.delete(news, made[1].id);
    const refill = await rows.create(news, {
      title: 'Same Title',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
    });
    expect(refill.slug).toBe('same-title-2');
    const next = await rows.create(news, { title: 'Same Title', status: 'draft', published_at: '2025-01-01 10:00:00' });
    expect(next.slug).toBe('same-title-5');
    other.raw.prepare(`delete from news where slug = 'same-title-3'`).run();
    const afterExternal = await rows.create(news, {
      title: 'Same Title',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
    });
    expect(afterExternal.slug).toBe('same-title-3');
  });
});
