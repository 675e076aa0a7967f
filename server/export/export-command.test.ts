import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChangeFeedService } from '../changes/change-feed-service.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { request } from '../test-support/api-scenario.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { exportCommand } from './export-command.js';
import type { ExportPage } from './export-pages.js';
import type { ExportIndex } from './site-export.js';

/** The flags naming the test server's database: `--db FILE`, or `--database URL` on PostgreSQL. */
const databaseArgs = (): string[] =>
  server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];

let server: TestServer;
let out: string;
let image: string;
let published: string;
let draft: string;
let article: string;

/** Runs `quire export` in-process (`rowsPerPage`: its pages' size); returns its exit code and what it said. */
async function runExport(
  args: string[],
  terminal = false,
  stop?: AbortSignal,
  rowsPerPage?: number,
): Promise<{ code: number; said: string; problems: string }> {
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: terminal });
  let said = '';
  let problems = '';
  stdout.on('data', (chunk) => {
    said += chunk;
  });
  stderr.on('data', (chunk) => {
    problems += chunk;
  });
  const code = await exportCommand(args, { out: stdout, err: stderr, stop, rowsPerPage });
  return { code, said, problems };
}

const readJson = (path: string) => JSON.parse(readFileSync(join(out, path), 'utf8'));

/** A type's entry in the index of the export in `dir`. */
function typeIn(dir: string, table: string) {
  const index: ExportIndex = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  const entry = index.content_types.find((type) => type.table === table);
  if (!entry) throw new Error(`${table} is not in the index`);
  return entry;
}

/** A type's rows in the export in `dir`, read from its pages as a builder does, with each row's file. */
function pagedRows(
  dir: string,
  table: string,
): { rows: { id: string; [column: string]: unknown }[]; files: Map<string, string> } {
  const entry = typeIn(dir, table);
  const rows: { id: string }[] = [];
  const files = new Map<string, string>();
  for (let page = 0; page < entry.page_count; page++) {
    const read: ExportPage = JSON.parse(readFileSync(join(dir, `${entry.pages}${page}.json`), 'utf8'));
    for (const row of read.rows) {
      rows.push(row);
      files.set(row.id, Object.hasOwn(read.files, row.id) ? read.files[row.id] : `${entry.rows}${row.id}.json`);
    }
  }
  return { rows, files };
}

/** Every file of the export in `dir`: its own, its media, each type's pages and row files. */
function exportedFiles(dir: string): string[] {
  const index: ExportIndex = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
  const files = ['index.json', 'content-types.json', 'openapi.json', 'types.d.ts'];
  files.push(...index.media.map((path) => path.slice(1)));
  for (const type of index.content_types) {
    for (let page = 0; page < type.page_count; page++) files.push(`${type.pages}${page}.json`);
    files.push(...pagedRows(dir, type.table).files.values());
  }
  return files.sort();
}

beforeAll(async () => {
  server = await startTestServer();
  out = mkdtempSync(join(tmpdir(), 'quire-export-'));
  const upload = new FormData();
  upload.append('file', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'harbour.png');
  const uploaded = await fetch(`${server.api}/uploads`, { method: 'POST', body: upload });
  image = ((await uploaded.json()) as { path: string }).path;
  const news = (title: string, status: string) => ({ title, status, published_at: '2026-01-02 09:00:00' });
  published = (await request(server, 'POST', '/cms/news', { json: news('Harbour opens', 'published') })).body.id;
  draft = (await request(server, 'POST', '/cms/news', { json: news('Secret plans', 'draft') })).body.id;
  const created = await request(server, 'POST', '/cms/articles', {
    json: { ...news('Boats', 'published'), body: `![boat](${image})`, image, tags: ['sea'] },
  });
  expect(created.response.status, created.text).toBe(201);
  article = created.body.id;
});
afterAll(async () => {
  await server.dispose();
  rmSync(out, { recursive: true, force: true });
});

describe('quire export', () => {
  it('writes every type, every row, the content types, the media used and an index', async () => {
    const result = await runExport([...databaseArgs(), '--out', out, '--published-only']);
    expect(result.problems).toBe('');
    expect(result.code).toBe(0);
    expect(result.said).toMatch(
      /^Exported 4 content types, 2 rows and 1 media files to .+: \d+ files written, 0 unchanged, 0 removed\n$/,
    );
    const index: ExportIndex = readJson('index.json');
    expect(index.published_only).toBe(true);
    expect(index.content_types.map((type) => [type.table, type.name, type.count])).toEqual(
      expect.arrayContaining([
        ['news', 'News', 1],
        ['articles', 'Article', 1],
        ['categories', 'Category', 0],
      ]),
    );
    expect(index.version).toBe(2);
    expect(index.media).toEqual([image]);
    const news = typeIn(out, 'news');
    expect([news.rows, news.pages, news.page_count, news.slug_column]).toEqual(['news/', 'news/pages/', 1, 'slug']);
    expect(typeIn(out, 'articles').media_pages).toEqual({ [image]: 1 });

    // The pages hold the rows as a row's read answers them (drafts left out), matching the document.
    const { rows } = pagedRows(out, 'news');
    expect(rows.map((row) => [row.title, row.slug])).toEqual([['Harbour opens', 'harbour-opens']]);
    const document: OpenApiDocument = readJson('openapi.json');
    const checker = new ResponseChecker(document);
    const live = (await request(server, 'GET', `/cms/news/${published}`)).body.rows[0];
    expect(rows[0]).toEqual(live);
    expect(checker.matches('Article', pagedRows(out, 'articles').rows[0])).toEqual([]);
    expect(checker.matches('Article', readJson(`articles/${article}.json`))).toEqual([]);
    expect(readJson(`news/${published}.json`)).toEqual(live);
    expect(existsSync(join(out, 'news', `${draft}.json`))).toBe(false);
    expect(readJson('content-types.json').content_types.map((type: { table: string }) => type.table)).toContain('news');
    expect(readFileSync(join(out, 'types.d.ts'), 'utf8')).toContain('export interface Article {');
    // The image, byte for byte, where its path says.
    expect(readFileSync(join(out, image))).toEqual(pngImage());
  });

  it('rewrites only what changed, and removes what is gone', async () => {
    const file = join(out, 'news', `${published}.json`);
    const before = statSync(file).mtimeMs;
    const again = await runExport([...databaseArgs(), '--out', out, '--published-only']);
    expect(again.code).toBe(0);
    expect(again.said).toMatch(/: 0 files written, \d+ unchanged, 0 removed\n$/);

    await request(server, 'PUT', `/cms/news/${draft}`, { json: { status: 'published' } });
    await request(server, 'DELETE', `/cms/articles/${article}`);
    const changed = await runExport([...databaseArgs(), '--out', out, '--published-only']);
    expect(changed.code).toBe(0);
    // The news page, the new row's file, index.json written; the article's file and the image
    // removed (the articles' page rewritten too).
    expect(changed.said).toMatch(/2 rows and 0 media files .*: 4 files written, \d+ unchanged, 2 removed\n$/);
    expect(existsSync(join(out, 'articles', `${article}.json`))).toBe(false);
    expect(existsSync(join(out, image))).toBe(false);
    expect(readJson(`news/${draft}.json`).title).toBe('Secret plans');
    // A file whose content did not change was not touched.
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it('exports only the types named, with every row without --published-only', async () => {
    const only = mkdtempSync(join(tmpdir(), 'quire-export-news-'));
    try {
      const result = await runExport([...databaseArgs(), '--out', only, '--type', 'news']);
      expect(result.code).toBe(0);
      expect(result.said).toMatch(/^Exported 1 content types, 2 rows and 0 media files/);
      expect(existsSync(join(only, 'articles'))).toBe(false);
    } finally {
      rmSync(only, { recursive: true, force: true });
    }
  });

  it('shows progress on a terminal, and clears it before the summary', async () => {
    const result = await runExport([...databaseArgs(), '--out', out], true);
    expect(result.code).toBe(0);
    // Each progress line is rewritten in place: a carriage return, the line, then erase-to-end (ESC [K).
    const ESC = String.fromCharCode(27);
    expect(result.problems.startsWith('\rExporting ')).toBe(true);
    expect(result.problems.split('\r').filter(Boolean)[0]).toMatch(new RegExp(`^Exporting \\w+: \\d+ rows${ESC}\\[K$`));
    expect(result.problems).toContain('\rExporting news: 2 rows\u001b[K');
    expect(result.problems.endsWith('\r\u001b[K')).toBe(true);
    expect(result.said).toMatch(/^Exported 4 content types/);
  });

  it('says in one line what is wrong', async () => {
    const unknown = await runExport([...databaseArgs(), '--out', out, '--type', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.problems).toMatch(/^quire export: no content type nope; the types are news, .*\n$/);
    const noOut = await runExport([...databaseArgs()]);
    expect(noOut.code).toBe(2);
    expect(noOut.problems).toMatch(/^quire export: --out names the folder to write\. Usage: quire export/);
    const both = await runExport([
      '--db',
      join(out, 'x.sqlite'),
      '--database',
      'postgres://x@127.0.0.1/y',
      '--out',
      out,
    ]);
    expect(both.code).toBe(2);
    expect(both.problems).toContain('not both');
  });
});

describe('quire export --since and --watch', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'quire-export-since-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const news = (title: string) => ({ title, status: 'published', published_at: '2026-01-02 09:00:00' });
  const create = async (path: string, json: unknown) => {
    const created = await request(server, 'POST', path, { json });
    expect(created.response.status, created.text).toBe(201);
    return created.body.id as string;
  };
  /** Each file of an export with its inode and mtime, to tell which a run replaced. */
  const stamps = (dir: string): Map<string, string> => {
    return new Map(
      exportedFiles(dir).map((file) => {
        const info = statSync(join(dir, file));
        return [file, `${info.ino}:${info.mtimeMs}`];
      }),
    );
  };

  it('rewrites only the files of changed rows and types, removes deleted rows, and records the cursor', async () => {
    const out = join(folder, 'site');
    const [first, second, third] = [
      await create('/cms/news', news('First')),
      await create('/cms/news', news('Second')),
      await create('/cms/news', news('Third')),
    ];
    await create('/cms/articles', { ...news('Pictured'), body: 'A quay.', image, tags: ['sea'] });
    const columns = [{ name: 'name', label: 'Name', type: 'text', required: true }];
    await request(server, 'POST', '/cms-content', {
      json: { title: 'Export Authors', slug: 'export-authors', columns },
    });
    const authors = (await request(server, 'GET', '/cms-content/export-authors')).body.table as string;
    await create(`/cms/${authors}`, { name: 'Ursula' });
    expect((await runExport([...databaseArgs(), '--out', out])).code).toBe(0);
    const before = stamps(out);
    const recorded: ExportIndex = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    expect(recorded.cursor).not.toBe('0');

    await request(server, 'PUT', `/cms/news/${first}`, { json: { title: 'First, again' } });
    await request(server, 'PUT', `/cms/news/${second}`, { json: { title: 'Second, again' } });
    await request(server, 'DELETE', `/cms/news/${third}`);
    await request(server, 'PUT', '/cms-content/export-authors', { json: { title: 'Export Writers' } });
    const added = await create(`/cms/${authors}`, { name: 'Octavia' });

    const result = await runExport([...databaseArgs(), '--out', out, '--since']);
    expect(result.problems).toBe('');
    expect(result.code).toBe(0);
    expect(result.said).toMatch(/ removed\n$/);
    const after = stamps(out);
    const index: ExportIndex = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    const replaced = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file);
    // One page holds every news row here (one page until 512 rows).
    expect(replaced.sort()).toEqual(
      [
        `news/${first}.json`,
        `news/${second}.json`,
        'news/pages/0.json',
        `${authors}/${added}.json`,
        `${authors}/pages/0.json`,
        'content-types.json',
        'openapi.json',
        'types.d.ts',
        'index.json',
      ].sort(),
    );
    expect(existsSync(join(out, 'news', `${third}.json`))).toBe(false);
    expect(pagedRows(out, 'news').rows.map((row) => row.id)).not.toContain(third);
    expect(index.content_types.find((type) => type.table === authors)?.title).toBe('Export Writers');
    expect(index.cursor).not.toBe(recorded.cursor);
    // No change touched the articles: kept as they were, with the media their rows name.
    expect(index.content_types.find((type) => type.table === 'articles')?.media_pages).toEqual({ [image]: 1 });
    expect(index.media).toContain(image);
    expect(existsSync(join(out, image.slice(1)))).toBe(true);

    // The same as a full export of the site now, and nothing left to do from the cursor reached.
    const full = join(folder, 'full');
    expect((await runExport([...databaseArgs(), '--out', full])).code).toBe(0);
    const fullIndex: ExportIndex = JSON.parse(readFileSync(join(full, 'index.json'), 'utf8'));
    expect({ ...index, cursor: '' }).toEqual({ ...fullIndex, cursor: '' });
    expect(exportedFiles(out)).toEqual(exportedFiles(full));
    for (const file of exportedFiles(out).filter((file) => file !== 'index.json')) {
      expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(full, file), 'utf8'));
    }
    const again = await runExport([...databaseArgs(), '--out', out, '--since', index.cursor]);
    expect(again.said).toMatch(/: 0 files written, \d+ unchanged, 0 removed\n$/);
  });

  it('exports a folder of the first format in full once, saying why, and removes its files', async () => {
    const out = join(folder, 'first-format');
    expect((await runExport([...databaseArgs(), '--out', out, '--type', 'news'])).code).toBe(0);
    const written: ExportIndex = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    // What the first format left: each type's rows in one file, and an index listing every file.
    writeFileSync(join(out, 'news.json'), '{"rows":[]}\n');
    const first = { ...written, version: 1, files: ['news.json', ...exportedFiles(out)] };
    writeFileSync(join(out, 'index.json'), `${JSON.stringify(first, null, 2)}\n`);
    const id = await create('/cms/news', news('After the first format'));

    const result = await runExport([...databaseArgs(), '--out', out, '--since']);
    expect(result.code).toBe(0);
    expect(result.problems).toBe(
      `quire export: ${out} holds an export in the first format (each type's rows in one file), so it is exported in full once in the current one\n`,
    );
    const index: ExportIndex = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    expect(index.version).toBe(2);
    expect(index.types).toEqual(['news']);
    expect(index.cursor).not.toBe(written.cursor);
    expect(existsSync(join(out, 'news.json'))).toBe(false);
    expect(pagedRows(out, 'news').rows.map((row) => row.id)).toContain(id);
    // From then on it continues as usual.
    const again = await runExport([...databaseArgs(), '--out', out, '--since']);
    expect(again.problems).toBe('');
    expect(again.said).toMatch(/: 0 files written, \d+ unchanged, 0 removed\n$/);
  });

  it('restores a deleted row, and pages a type again as it grows and shrinks', async () => {
    // Pages of 16 rows on average rather than 256: the same thresholds crossed with tens of rows.
    const ROWS = 16;
    const runPaged = (args: string[]) => runExport(args, false, undefined, ROWS);
    const out = join(folder, 'paged');
    const columns = [{ name: 'name', label: 'Name', type: 'text', required: true }];
    const made = await request(server, 'POST', '/cms-content', { json: { title: 'Paged', slug: 'paged', columns } });
    expect(made.response.status, made.text).toBe(201);
    const table = (await request(server, 'GET', '/cms-content/paged')).body.table as string;
    /** Creates `count` rows, a few at a time. */
    const createRows = async (count: number, from: number): Promise<string[]> => {
      const ids: string[] = [];
      for (let at = 0; at < count; at += 25) {
        const batch = Array.from({ length: Math.min(25, count - at) }, (_, n) =>
          create(`/cms/${table}`, { name: `Row ${from + at + n}` }),
        );
        ids.push(...(await Promise.all(batch)));
      }
      return ids;
    };
    /** Deletes rows, a few at a time. */
    const remove = async (...doomed: string[]) => {
      for (let at = 0; at < doomed.length; at += 25) {
        const batch = doomed.slice(at, at + 25).map((id) => request(server, 'DELETE', `/cms/${table}/${id}`));
        for (const deleted of await Promise.all(batch)) expect(deleted.response.status).toBeLessThan(300);
      }
    };
    const ids = await createRows(10, 0);
    expect((await runPaged([...databaseArgs(), '--out', out, '--type', table])).code).toBe(0);
    expect(typeIn(out, table).page_count).toBe(1);

    // Deleted, then restored from the trash: its file goes, then comes back.
    await remove(ids[0]);
    expect((await runPaged([...databaseArgs(), '--out', out, '--since'])).code).toBe(0);
    expect(existsSync(join(out, table, `${ids[0]}.json`))).toBe(false);
    expect(typeIn(out, table).count).toBe(9);
    const restored = await request(server, 'POST', `/cms/${table}/trash/${ids[0]}/restore`);
    expect(restored.response.status, restored.text).toBeLessThan(300);
    expect((await runPaged([...databaseArgs(), '--out', out, '--since'])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, table, `${ids[0]}.json`), 'utf8')).name).toBe('Row 0');
    expect(typeIn(out, table).count).toBe(10);

    // Past twice the rows a page holds on average (32 on one page): four pages.
    const more = await createRows(30, 10);
    expect((await runPaged([...databaseArgs(), '--out', out, '--since'])).code).toBe(0);
    const grown = typeIn(out, table);
    expect([grown.count, grown.page_count]).toEqual([40, 4]);
    expect(readdirSync(join(out, table, 'pages')).sort()).toEqual(['0.json', '1.json', '2.json', '3.json']);
    expect(pagedRows(out, table).rows).toHaveLength(40);

    // One row changed on four pages: its file, its page and the index rewritten, nothing else.
    const page = (n: number) => statSync(join(out, table, 'pages', `${n}.json`)).mtimeMs;
    const pagesBefore = [0, 1, 2, 3].map(page);
    await request(server, 'PUT', `/cms/${table}/${more[0]}`, { json: { name: 'Changed' } });
    const one = await runPaged([...databaseArgs(), '--out', out, '--since']);
    expect(one.said).toMatch(/: 3 files written, \d+ unchanged, 0 removed\n$/);
    expect([0, 1, 2, 3].filter((n) => page(n) !== pagesBefore[n])).toHaveLength(1);

    // Down to fewer than a quarter of that: paged again on one page, the other pages removed.
    await remove(...[...ids, ...more].slice(0, 25));
    expect((await runPaged([...databaseArgs(), '--out', out, '--since'])).code).toBe(0);
    expect([typeIn(out, table).count, typeIn(out, table).page_count]).toEqual([15, 1]);
    expect(readdirSync(join(out, table, 'pages'))).toEqual(['0.json']);
    expect(readdirSync(join(out, table))).toHaveLength(16);
    const full = join(folder, 'paged-full');
    expect((await runPaged([...databaseArgs(), '--out', full, '--type', table])).code).toBe(0);
    expect(readFileSync(join(out, table, 'pages', '0.json'), 'utf8')).toBe(
      readFileSync(join(full, table, 'pages', '0.json'), 'utf8'),
    );

    // The type deleted since: its pages and row files go, found from its pages.
    const deleted = await request(server, 'DELETE', '/cms-content/paged?force=true');
    expect(deleted.response.status, deleted.text).toBeLessThan(300);
    const gone = await runPaged([...databaseArgs(), '--out', out, '--since']);
    expect(gone.said).toMatch(/ 16 removed\n$/);
    expect(readdirSync(join(out, table))).toEqual(['pages']);
  });

  it('applies each change as it is saved with --watch, until stopped', async () => {
    const out = join(folder, 'watched');
    const stop = new AbortController();
    const running = runExport([...databaseArgs(), '--out', out, '--type', 'news', '--watch'], false, stop.signal);
    await vi.waitFor(() => expect(existsSync(join(out, 'index.json'))).toBe(true), { timeout: 30_000 });
    const id = await create('/cms/news', news('Watched'));
    const file = join(out, 'news', `${id}.json`);
    await vi.waitFor(() => expect(existsSync(file)).toBe(true), { timeout: 30_000, interval: 100 });
    await request(server, 'DELETE', `/cms/news/${id}`);
    await vi.waitFor(() => expect(existsSync(file)).toBe(false), { timeout: 30_000, interval: 100 });
    stop.abort();
    const result = await running;
    expect(result.problems).toBe('');
    expect(result.code).toBe(0);
    expect(result.said.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(3);
  });

  it('says in one line when there is no cursor to continue from, or it has expired', async () => {
    const empty = join(folder, 'empty');
    const none = await runExport([...databaseArgs(), '--out', empty, '--since']);
    expect(none.code).toBe(1);
    expect(none.problems).toBe(
      `quire export: ${empty} holds no export with a cursor to continue; export it in full first (without --since)\n`,
    );
    const mixed = await runExport([...databaseArgs(), '--out', empty, '--since', '--type', 'news']);
    expect(mixed.code).toBe(2);

    const out = join(folder, 'site');
    // Every change older than a day from a clock far ahead: purged, so the recorded cursor expires.
    const ahead = new Date(Date.now() + 400 * 24 * 60 * 60 * 1000);
    await new ChangeFeedService({
      db: server.database.db,
      engine: server.database.engine,
      days: 1,
      now: () => ahead,
    }).purge();
    await create('/cms/news', news('After the purge'));
    const expired = await runExport([...databaseArgs(), '--out', out, '--since']);
    expect(expired.code).toBe(1);
    expect(expired.problems).toBe(
      'quire export: the cursor is older than the changes kept (30 days); export in full (without --since)\n',
    );
  });
});

describe('quire export in a folder with symlinks planted in it', () => {
  let folder: string;
  let outside: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'quire-export-planted-'));
    outside = mkdtempSync(join(tmpdir(), 'quire-export-outside-'));
  });
  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('removes only regular files the last export listed inside the folder, never through a link', async () => {
    const out = join(folder, 'listed');
    expect((await runExport([...databaseArgs(), '--out', out])).code).toBe(0);
    writeFileSync(join(outside, 'victim.txt'), 'keep me');
    writeFileSync(join(outside, 'linked.txt'), 'keep me too');
    symlinkSync(outside, join(out, 'planted'));
    symlinkSync(join(outside, 'linked.txt'), join(out, 'linked.json'));
    // A temporary name the export uses, made a link to a file outside.
    symlinkSync(join(outside, 'linked.txt'), join(out, `content-types.json.${process.pid}.tmp`));
    writeFileSync(join(out, 'content-types.json'), 'stale');
    const index = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    // What the next run removes is derived from the index: planted among its media.
    index.media.push('/planted/victim.txt', '/linked.json', '/../outside.txt');
    writeFileSync(join(out, 'index.json'), JSON.stringify(index));

    const again = await runExport([...databaseArgs(), '--out', out]);
    expect(again.problems).toBe('');
    expect(again.code).toBe(0);
    expect(again.said).toMatch(/ 0 removed\n$/);
    expect(readFileSync(join(outside, 'victim.txt'), 'utf8')).toBe('keep me');
    expect(readFileSync(join(outside, 'linked.txt'), 'utf8')).toBe('keep me too');
    expect(lstatSync(join(out, 'linked.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'content-types.json'), 'utf8')).count).toBeGreaterThan(0);
  });

  it('refuses a symlinked type folder in one line, writing nothing outside', async () => {
    const out = join(folder, 'type-link');
    mkdirSync(out);
    mkdirSync(join(outside, 'news-elsewhere'));
    symlinkSync(join(outside, 'news-elsewhere'), join(out, 'news'));
    const result = await runExport([...databaseArgs(), '--out', out, '--type', 'news']);
    expect(result.code).toBe(1);
    expect(result.problems).toBe(
      `quire export: ${join(out, 'news')} is a symbolic link, which an export never writes through; remove it and export again\n`,
    );
    expect(readdirSync(join(outside, 'news-elsewhere'))).toEqual([]);
  });

  it('refuses a symlink where it writes a file, leaving what it names as it was', async () => {
    const out = join(folder, 'file-link');
    mkdirSync(out);
    writeFileSync(join(outside, 'named.txt'), 'as it was');
    mkdirSync(join(out, 'news', 'pages'), { recursive: true });
    symlinkSync(join(outside, 'named.txt'), join(out, 'news', 'pages', '0.json'));
    const result = await runExport([...databaseArgs(), '--out', out, '--type', 'news']);
    expect(result.code).toBe(1);
    expect(result.problems).toBe(
      `quire export: ${join(out, 'news', 'pages', '0.json')} is a symbolic link, which an export never writes through; remove it and export again\n`,
    );
    expect(readFileSync(join(outside, 'named.txt'), 'utf8')).toBe('as it was');
  });
});

describe('quire export file names', () => {
  it('are safe and unique on every file system, and the index maps each id to its file', async () => {
    const ids = ['Abc', 'abc', 'con', 'NUL', 'com1', '__proto__'];
    for (const id of ids) {
      const created = await request(server, 'POST', `/cms/news/${id}`, {
        json: { title: `Named ${id}`, status: 'draft', published_at: '2026-01-02 09:00:00' },
      });
      expect(created.response.status, created.text).toBe(201);
    }
    // Longer than any id the API accepts: a row written by an older version or another program.
    const placeholder = (
      await request(server, 'POST', '/cms/news/to-be-long', {
        json: { title: 'Long id', status: 'draft', published_at: '2026-01-02 09:00:00' },
      })
    ).body.id;
    const long = `l${'o'.repeat(298)}g`;
    const db = server.database.db;
    // PostgreSQL's search side table refers to the id (it is not what an export reads).
    if (server.postgresDatabase)
      await sql`delete from ${sql.table('quire_search:news')} where id = ${placeholder}`.execute(db);
    await sql`update news set id = ${long} where id = ${placeholder}`.execute(db);

    const named = mkdtempSync(join(tmpdir(), 'quire-export-names-'));
    try {
      const result = await runExport([...databaseArgs(), '--out', named, '--type', 'news']);
      expect(result.problems).toBe('');
      expect(result.code).toBe(0);
      const { files } = pagedRows(named, 'news');
      for (const id of [...ids, long]) {
        expect(files.has(id), id).toBe(true);
        expect(JSON.parse(readFileSync(join(named, files.get(id) as string), 'utf8')).id).toBe(id);
      }
      expect(files.size).toBe(typeIn(named, 'news').count);
      const names = [...files.values()].map((file) => file.replace(/^news\//, ''));
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
      expect(names).toContain('abc.json');
      expect(names).toContain('%63om1.json');
      const windowsDevice = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;
      expect(names.filter((name) => windowsDevice.test(name))).toEqual([]);
      expect(Math.max(...names.map((name) => Buffer.byteLength(name)))).toBeLessThan(128);
      expect(
        readdirSync(join(named, 'news'))
          .filter((name) => name !== 'pages')
          .sort(),
      ).toEqual([...names].sort());
      // The pages name only the files that are not `<id>.json`.
      const exceptions: Record<string, string> = JSON.parse(
        readFileSync(join(named, 'news/pages/0.json'), 'utf8'),
      ).files;
      expect(Object.keys(exceptions).sort()).toEqual(['Abc', 'NUL', 'com1', 'con', long].sort());

      // Deleted with --since: the file its page named goes.
      await request(server, 'DELETE', '/cms/news/Abc');
      expect((await runExport([...databaseArgs(), '--out', named, '--since'])).code).toBe(0);
      expect(existsSync(join(named, files.get('Abc') as string))).toBe(false);
      expect(pagedRows(named, 'news').files.has('Abc')).toBe(false);
    } finally {
      rmSync(named, { recursive: true, force: true });
    }
  });
});
