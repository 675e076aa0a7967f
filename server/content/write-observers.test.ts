import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuireDb } from '../db/database.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';
import type { ContentType } from './content-type.js';
import { ContentTypeRegistry } from './content-type-registry.js';
import { ContentWrites } from './content-writes.js';
import { parseListQuery } from './list-query.js';
import { RowService } from './row-service.js';

let opened: OpenTestDatabase;
let database: QuireDb;
let rows: RowService;
let news: ContentType;
/** What the observers and the decorator were told, in order. */
const calls: string[] = [];
let refuse = false;

beforeAll(async () => {
  opened = await openTestDatabase();
  database = opened.database;
  const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
  await registry.reload();
  news = registry.requireByTable('news');
  const writes = new ContentWrites({
    db: database.db,
    runner: database.runner,
    observers: [
      async (_trx, scope, log) => {
        calls.push(`first ${scope.type.table} ${log.changes.length}`);
      },
      async (_trx, scope) => {
        calls.push(`second ${scope.type.table}`);
        if (refuse) throw new Error('the second observer refuses');
      },
    ],
  });
  rows = new RowService({
    db: database.db,
    engine: database.engine,
    editorName: 'tester',
    registry,
    writes,
    runner: database.runner,
    decorators: [
      async (type, found) => {
        calls.push(`decorate ${type.table} ${found.length}`);
        for (const row of found) (row as Record<string, unknown>).seen = true;
      },
    ],
  });
});

afterAll(async () => {
  await opened?.dispose();
});

const total = async () => (await rows.list(news, parseListQuery(news, { limit: '1' }))).total;

describe('the observers and decorators the composition root passes in', () => {
  it('run in the order given, inside the write: a refusing observer undoes it', async () => {
    const before = await total();
    calls.length = 0;
    const created = await rows.create(news, {
      title: 'Observed',
      status: 'draft',
      published_at: '2026-01-01 10:00:00',
    });
    expect(calls).toEqual(['first news 1', 'second news']);

    refuse = true;
    calls.length = 0;
    await expect(
      rows.create(news, { title: 'Refused', status: 'draft', published_at: '2026-01-01 10:00:00' }),
    ).rejects.toThrow('the second observer refuses');
    refuse = false;
    expect(calls).toEqual(['first news 1', 'second news']);
    expect(await total()).toBe(before + 1);

    calls.length = 0;
    const { row } = await rows.get(news, created.id);
    expect(row).toMatchObject({ title: 'Observed', seen: true });
    expect(calls).toEqual(['decorate news 1']);
  });
});
