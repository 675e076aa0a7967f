import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import type { QuireDb } from '../db/database.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { AppError } from '../errors/app-error.js';
import { readList } from '../http/row-routes.js';
import type { Services } from '../http/services.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';
import { ContentTypeRegistry } from './content-type-registry.js';
import { ContentTypeService } from './content-type-service.js';
import { ContentWrites } from './content-writes.js';
import { RowService } from './row-service.js';

let opened: OpenTestDatabase;
let database: QuireDb;
let registry: ContentTypeRegistry;
let rows: RowService;
let contentTypes: ContentTypeService;
let writes: ContentWrites;

beforeAll(async () => {
  // SQLite, or PostgreSQL in the server-pg project (no statement runner there: reads queue through Kysely).
  opened = await openTestDatabase();
  database = opened.database;
  registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
  await registry.reload();
  writes = new ContentWrites({ db: database.db, runner: database.runner });
  rows = new RowService({
    db: database.db,
    engine: database.engine,
    editorName: 'tester',
    registry,
    writes,
    runner: database.runner,
  });
  contentTypes = new ContentTypeService({ writes, registry, engine: database.engine });
  const news = registry.requireByTable('news');
  for (let i = 0; i < 200; i++) {
    await rows.create(news, { title: `Story ${i}`, status: 'draft', published_at: '2026-01-01 10:00:00' });
  }
});

afterAll(async () => {
  await opened?.dispose();
});

describe('requests during a content-type change', () => {
  it('never plan against columns being renamed, and read the new columns after', async () => {
    // Requests keep coming while a column is renamed (indexes dropped, the column renamed,
    // indexes rebuilt, the registry reloaded), interleaved at every await: each answers either
    // as before the change or as after it (a 400 naming the old column), never with a SQL error.
    // Row reads use only these services: revisions, schedules, hooks and the audit log play no part.
    const services = { registry, rows, contentTypes, writes, locales: { document: DEFAULT_LOCALES } } as Services;
    let changing = true;
    let reads = 0;
    const answers: string[] = [];
    const reading = (async () => {
      while (changing && answers.length < 50) {
        await Promise.resolve();
        // Each read differs (no cached page answers it), so each one runs SQL.
        const query = { filter: 'status=draft', order: 'title', limit: '5', offset: String(reads++ % 150) };
        await readList(services, 'news', query).then(
          () => answers.push('200'),
          (error) => answers.push(error instanceof AppError ? String(error.status) : String(error)),
        );
      }
    })();
    const columns = registry.requireByTable('news').columns.map((column) => {
      if (column.name === 'title') return { ...column, name: 'headline', from: 'title' };
      return column.parent === 'title' ? { ...column, parent: 'headline' } : column;
    });
    await contentTypes.update('news', { columns });
    changing = false;
    await reading;
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.filter((answer) => answer !== '200' && answer !== '400')).toEqual([]);
    const news = registry.requireByTable('news');
    expect(news.titleColumn).toBe('headline');
    const list = await readList(services, 'news', { filter: 'status=draft', order: 'headline', limit: '5' });
    expect(list.body.filtered).toBe(200);
    expect(list.body.rows[0].headline).toMatch(/^Story /);
  });
});
