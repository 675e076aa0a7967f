import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeEntry } from '../changes/change-feed.js';
import { ChangeFeedService } from '../changes/change-feed-service.js';
import { ContentTypeRegistry } from '../content/content-type-registry.js';
import { ContentWrites } from '../content/content-writes.js';
import { parseListQuery } from '../content/list-query.js';
import { RowService } from '../content/row-service.js';
import { openDatabase } from '../db/database.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { memoryIndexOf } from '../db/sqlite/sqlite-memory-search-state.js';
import { snapshotFolder } from '../db/sqlite/sqlite-search-snapshot.js';
import { captureOutput } from '../test-support/captured-output.js';
import { importCommand } from './import-command.js';
import { importRows } from './row-import.js';

let dir: string;
let dbFile: string;

async function runImport(file: string, content: string, ...extra: string[]) {
  const path = join(dir, file);
  writeFileSync(path, content);
  const out = captureOutput();
  const err = captureOutput();
  const code = await importCommand(['--db', dbFile, '--type', 'news', ...extra, path], { out, err });
  return { code, out: out.text, err: err.text };
}

async function withService<T>(work: (rows: RowService, registry: ContentTypeRegistry) => Promise<T>): Promise<T> {
  const database = await openDatabase(dbFile);
  try {
    const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
    await registry.reload();
    return await work(
      new RowService({
        db: database.db,
        engine: database.engine,
        editorName: 'checker',
        registry,
        writes: new ContentWrites({ db: database.db, runner: database.runner }),
        runner: database.runner,
      }),
      registry,
    );
  } finally {
    await database.close();
  }
}

async function listNews(query: Record<string, string> = {}) {
  return withService(async (rows, registry) => {
    const news = registry.requireByTable('news');
    return rows.list(news, parseListQuery(news, { order: 'id', limit: '1000', ...query }));
  });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-import-'));
  dbFile = join(dir, 'content.sqlite');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('quire import', () => {
  it('imports a JSON array through the API rules: validation, slugs, system fields', async () => {
    const rows = [
      { title: 'Über uns', status: 'published', published_at: '2025-01-02T10:00' },
      { title: 'Über uns', status: 'draft', published_at: '2025-01-03 10:00:00' },
      { title: 'Given slug', slug: 'My Own Slug', status: 'draft', published_at: '2025-01-04 10:00:00' },
      { id: 'chosen-id', title: 'With id', status: 'archived', published_at: '2025-01-05 10:00:00', meta_title: 'T' },
    ];
    const result = await runImport('rows.json', JSON.stringify(rows, null, 2));
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    // A slow machine may take long enough over the table's indexes to say so.
    expect(result.out).toMatch(
      /^Imported 4 news rows from rows\.json in [\d.]+ s \([\d,]+ rows\/s\)(, indexes built after the rows in [\d.]+ s of that)?\n$/,
    );
    const list = await listNews({ order: 'published_at' });
    expect(list.total).toBe(4);
    expect(list.rows.map((row) => row.slug)).toEqual(['uber-uns', 'uber-uns-2', 'my-own-slug', 'with-id']);
    expect(list.rows[0].published_at).toBe('2025-01-02 10:00:00');
    expect(list.rows[0].created_by).toBe('import');
    expect(list.rows[3].id).toBe('chosen-id');
    expect(list.rows[3].meta).toEqual({ title: 'T', description: '', keywords: '' });
  });

  it('imports NDJSON and CSV with quoting, and makes the rows searchable', async () => {
    expect(
      (await runImport('a.ndjson', '{"title":"Alpha one","status":"draft","published_at":"2025-01-01 00:00:00"}\n'))
        .code,
    ).toBe(0);
    const csv =
      'title,status,published_at\n"Café, ""quoted""",published,2025-02-01 08:00:00\r\n"Two\nlines",draft,2025-02-02 08:00:00\n';
    expect((await runImport('b.csv', csv)).code).toBe(0);
    const list = await listNews({ order: 'published_at' });
    expect(list.rows.map((row) => row.title)).toEqual(['Alpha one', 'Café, "quoted"', 'Two\nlines']);
    const found = await listNews({ filter: 'search=CAFÉ, "Q' });
    expect(found.rows.map((row) => row.title)).toEqual(['Café, "quoted"']);
    expect((await listNews({ filter: 'search=alp' })).filtered).toBe(1);
  });

  it('saves the search index of a large import for the next start, which reads it back instead of building it', async () => {
    const words = ['harbour', 'café', 'station', 'über', 'night'];
    const lines = Array.from({ length: 20_000 }, (_, i) =>
      JSON.stringify({
        title: `${words[i % 5]} ${words[(i * 7) % 5]} ${i}`,
        status: 'draft',
        published_at: '2025-01-01 00:00:00',
      }),
    );
    const result = await runImport('large.ndjson', `${lines.join('\n')}\n`);
    expect(result.code).toBe(0);
    // One line in a pipe, the search index's time folded in after the rows' (and their indexes').
    expect(result.out).toMatch(
      /^Imported 20,000 news rows from large\.ndjson in [\d.]+ s \([\d,]+ rows\/s\)(, indexes built after the rows in [\d.]+ s of that)?, search index saved for the next start in \d+\.\d s\n$/,
    );
    expect(readdirSync(snapshotFolder(dbFile))).toEqual([`${Buffer.from('news').toString('hex')}.bin`]);

    const database = await openDatabase(dbFile, { savedSearchIndexes: {} });
    try {
      const reader = new ContentRepository({ db: database.db, engine: database.engine, runner: database.runner });
      const plain = new ContentRepository({ db: database.db, engine: database.engine });
      for (const keyword of ['café st', 'ber', '1999', 'night']) {
        const selection = { equals: [], search: { columns: ['title', 'slug'], keywords: [keyword] } };
        const expected = (await plain.listByScan('news', selection)).length;
        expect(await reader.count('news', selection), keyword).toBe(expected);
      }
      expect(memoryIndexOf(database.runner, 'news')).toMatchObject({ ready: true, loaded: true });
    } finally {
      await database.close();
    }
  });

  it('puts every imported row in the change feed as created by the import, and a refused file in none', async () => {
    // More rows than one statement appends, so the changes go in several.
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      id: `imported-${i}`,
      title: `Row ${i}`,
      status: 'draft',
      published_at: '2025-01-01 00:00:00',
    }));
    expect((await runImport('rows.json', JSON.stringify(rows))).code).toBe(0);
    const refused = [{ title: 'Kept out', status: 'draft', published_at: '2025-01-01 00:00:00' }, { status: 'x' }];
    expect((await runImport('refused.json', JSON.stringify(refused))).code).toBe(1);

    const database = await openDatabase(dbFile);
    try {
      const feed = new ChangeFeedService({ db: database.db, engine: database.engine });
      const changes: ChangeEntry[] = [];
      for (let since = '0'; ; ) {
        const page = await feed.read({ since, limit: 1000 });
        if (page.changes.length === 0) break;
        changes.push(...page.changes);
        since = page.next;
      }
      expect((await listNews()).total).toBe(rows.length);
      // One change per row, in the file's order: the refused file's row is in neither.
      expect(changes.map((change) => change.id)).toEqual(rows.map((row) => row.id));
      for (const change of changes) {
        expect(change).toMatchObject({ type: 'news', action: 'create', by: 'import' });
      }
    } finally {
      await database.close();
    }
  });

  it('keeps slugs unique against rows already in the table and within the file', async () => {
    await runImport(
      'first.json',
      JSON.stringify([{ title: 'Same', status: 'draft', published_at: '2025-01-01 00:00:00' }]),
    );
    const again = Array.from({ length: 3 }, () => ({
      title: 'Same',
      status: 'draft',
      published_at: '2025-01-01 00:00:00',
    }));
    expect((await runImport('again.json', JSON.stringify(again))).code).toBe(0);
    const list = await listNews();
    expect(list.rows.map((row) => row.slug).sort()).toEqual(['same', 'same-2', 'same-3', 'same-4']);
  });

  it('refuses the whole file when a row is bad, naming each bad row by line, and writes nothing', async () => {
    await runImport(
      'seed.json',
      JSON.stringify([{ title: 'Kept', status: 'draft', published_at: '2025-01-01 00:00:00' }]),
    );
    const content = [
      '[',
      '{"title": "Fine", "status": "draft", "published_at": "2025-01-01 00:00:00"},',
      '{"title": "No status", "published_at": "2025-01-01 00:00:00"},',
      '{"title": "Bad date", "status": "draft", "published_at": "yesterday"},',
      '{"title": "Unknown", "status": "draft", "published_at": "2025-01-01 00:00:00", "colour": "red"},',
      '{"title": "Taken slug", "slug": "kept", "status": "draft", "published_at": "2025-01-01 00:00:00"},',
      '{"id": "a b", "title": "Bad id", "status": "draft", "published_at": "2025-01-01 00:00:00"},',
      '{"id": "trash", "title": "The trash\'s path", "status": "draft", "published_at": "2025-01-01 00:00:00"}',
      ']',
    ].join('\n');
    const result = await runImport('bad.json', content);
    expect(result.code).toBe(1);
    expect(result.out).toBe('');
    const lines = result.err.trim().split('\n');
    expect(lines[0]).toBe('bad.json line 3: status is required');
    expect(lines[1]).toMatch(/^bad\.json line 4: published_at must be a real date/);
    expect(lines[2]).toMatch(/^bad\.json line 5: colour is not a field of news/);
    expect(lines[3]).toBe('bad.json line 6: slug is already taken');
    expect(lines[4]).toMatch(/^bad\.json line 7: id must be/);
    // `/cms/news/trash` is the trash: a row with that id could not be read at its URL.
    expect(lines[5]).toBe('bad.json line 8: id must be 1 to 128 letters, digits or . _ ~ - characters, and not trash');
    expect(lines[6]).toBe('quire import: 6 of 7 rows refused; nothing was imported');
    const list = await listNews();
    expect(list.rows.map((row) => row.title)).toEqual(['Kept']);
    expect((await listNews({ filter: 'search=fine' })).filtered).toBe(0);
  });

  it('reports a malformed file by line and writes nothing', async () => {
    const result = await runImport('broken.csv', 'title,status,published_at\nOne,draft\n');
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      'quire import: broken.csv line 2: has 2 fields where the header has 3; nothing was imported\n',
    );
    expect((await listNews()).total).toBe(0);
  });

  it('explains usage mistakes in one line', async () => {
    const out = captureOutput();
    const err = captureOutput();
    expect(await importCommand(['--db', dbFile, join(dir, 'x.json')], { out, err })).toBe(2);
    expect(err.text).toMatch(/^quire import: --type names the content type/);
    const unknown = await runImport('x.json', '[]', '--type', 'nothing');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/there is no content type nothing \(types: .*news/);
    const wrongFormat = await runImport('x.txt', '');
    expect(wrongFormat.err).toMatch(/must end in \.json, \.ndjson, \.jsonl or \.csv/);
  });

  it('times the indexes it builds after the rows: into an empty table, not into one with rows', async () => {
    const database = await openDatabase(dbFile);
    try {
      const registry = new ContentTypeRegistry({ repository: new ContentTypeRepository(database.db) });
      await registry.reload();
      const news = registry.requireByTable('news');
      const records = (from: number) =>
        Array.from({ length: 200 }, (_, i) => ({
          line: i + 1,
          fields: { title: `Row ${from + i}`, status: 'draft', published_at: '2025-01-01 00:00:00' },
        }));
      const first = await importRows(database, registry, news, records(0), { editorName: 'import' });
      expect(first).toMatchObject({ imported: 200, refused: 0 });
      expect(first.indexSeconds).toBeGreaterThan(0);
      // Into rows already there the indexes stay and are kept row by row: nothing built after.
      const second = await importRows(database, registry, news, records(200), { editorName: 'import' });
      expect(second).toMatchObject({ imported: 200, refused: 0, indexSeconds: 0 });
    } finally {
      await database.close();
    }
  });

  it('draws a progress bar on a terminal and clears it before the summary', async () => {
    const path = join(dir, 'many.json');
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      title: `Row ${i}`,
      status: 'draft',
      published_at: '2025-01-01 00:00:00',
    }));
    writeFileSync(path, JSON.stringify(rows));
    const out = captureOutput();
    const err = captureOutput();
    err.isTTY = true;
    expect(await importCommand(['--db', dbFile, '--type', 'news', path], { out, err })).toBe(0);
    expect(err.text).toContain('Importing news [');
    expect(err.text).toContain('100% 5,000/5,000 rows');
    expect(err.text.endsWith('\r\u001b[K')).toBe(true);
    expect(out.text).toMatch(/^Imported 5,000 news rows/);
    expect((await listNews({ limit: '1' })).total).toBe(5000);
  });
});
