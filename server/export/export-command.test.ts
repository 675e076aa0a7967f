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

/** Runs `quire export` in-process; returns its exit code and what it said. */
async function runExport(
  args: string[],
  terminal = false,
  stop?: AbortSignal,
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
  const code = await exportCommand(args, { out: stdout, err: stderr, stop });
  return { code, said, problems };
}

const readJson = (path: string) => JSON.parse(readFileSync(join(out, path), 'utf8'));

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
    expect(index.content_types.find((type) => type.table === 'news')?.slugs).toEqual({ 'harbour-opens': published });
    expect(index.media).toEqual([image]);

    // The list file is what the list endpoint answers (drafts left out), and matches the document.
    const list = readJson('news.json');
    expect(list.rows.map((row: { title: string }) => row.title)).toEqual(['Harbour opens']);
    const document: OpenApiDocument = readJson('openapi.json');
    const checker = new ResponseChecker(document);
    expect(checker.matches('NewsList', list)).toEqual([]);
    expect(checker.matches('ArticleList', readJson('articles.json'))).toEqual([]);
    expect(checker.matches('Article', readJson(`articles/${article}.json`))).toEqual([]);
    const live = (await request(server, 'GET', `/cms/news/${published}`)).body.rows[0];
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
    // news.json, the new row's file, index.json written; the article's file and the image removed
    // (articles.json rewritten too).
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
      expect(existsSync(join(only, 'articles.json'))).toBe(false);
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
    const index: ExportIndex = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    return new Map(
      index.files.map((file) => {
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
    const filesOf = (table: string) => index.content_types.find((type) => type.table === table)?.row_files ?? {};
    const replaced = [...after].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file);
    expect(replaced.sort()).toEqual(
      [
        filesOf('news')[first],
        filesOf('news')[second],
        'news.json',
        filesOf(authors)[added],
        `${authors}.json`,
        'content-types.json',
        'openapi.json',
        'types.d.ts',
        'index.json',
      ].sort(),
    );
    expect(
      existsSync(join(out, recorded.content_types.find((type) => type.table === 'news')?.row_files[third] ?? '')),
    ).toBe(false);
    expect(index.content_types.find((type) => type.table === authors)?.title).toBe('Export Writers');
    expect(index.cursor).not.toBe(recorded.cursor);
    // No change touched the articles: kept as they were, with the media their rows name.
    expect(index.content_types.find((type) => type.table === 'articles')?.media).toEqual([image]);
    expect(index.media).toContain(image);
    expect(existsSync(join(out, image.slice(1)))).toBe(true);

    // The same as a full export of the site now, and nothing left to do from the cursor reached.
    const full = join(folder, 'full');
    expect((await runExport([...databaseArgs(), '--out', full])).code).toBe(0);
    const fullIndex: ExportIndex = JSON.parse(readFileSync(join(full, 'index.json'), 'utf8'));
    expect({ ...index, cursor: '' }).toEqual({ ...fullIndex, cursor: '' });
    for (const file of index.files.filter((file) => file !== 'index.json')) {
      expect(readFileSync(join(out, file), 'utf8'), file).toBe(readFileSync(join(full, file), 'utf8'));
    }
    const again = await runExport([...databaseArgs(), '--out', out, '--since', index.cursor]);
    expect(again.said).toMatch(/: 0 files written, \d+ unchanged, 0 removed\n$/);
  });

  it('reads a type again when an older export recorded no media for it', async () => {
    const out = join(folder, 'older');
    expect((await runExport([...databaseArgs(), '--out', out])).code).toBe(0);
    const written: ExportIndex = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    const older = { ...written, content_types: written.content_types.map(({ media: _, ...type }) => type) };
    writeFileSync(join(out, 'index.json'), `${JSON.stringify(older, null, 2)}\n`);
    await create('/cms/news', news('After the older export'));
    expect((await runExport([...databaseArgs(), '--out', out, '--since'])).code).toBe(0);
    const index: ExportIndex = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    expect(index.content_types.find((type) => type.table === 'articles')?.media).toEqual([image]);
    expect(index.media).toContain(image);
    expect(existsSync(join(out, image.slice(1)))).toBe(true);
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
    index.files.push('planted/victim.txt', 'linked.json', '../outside.txt');
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
    symlinkSync(join(outside, 'named.txt'), join(out, 'news.json'));
    const result = await runExport([...databaseArgs(), '--out', out, '--type', 'news']);
    expect(result.code).toBe(1);
    expect(result.problems).toBe(
      `quire export: ${join(out, 'news.json')} is a symbolic link, which an export never writes through; remove it and export again\n`,
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
      const index: ExportIndex = JSON.parse(readFileSync(join(named, 'index.json'), 'utf8'));
      const news = index.content_types.find((type) => type.table === 'news');
      const files = news?.row_files ?? {};
      for (const id of [...ids, long]) {
        expect(Object.hasOwn(files, id), id).toBe(true);
        expect(JSON.parse(readFileSync(join(named, files[id]), 'utf8')).id).toBe(id);
      }
      expect(Object.keys(files)).toHaveLength(news?.count ?? -1);
      const names = Object.values(files).map((file) => file.replace(/^news\//, ''));
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length);
      expect(names).toContain('abc.json');
      expect(names).toContain('%63om1.json');
      const windowsDevice = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;
      expect(names.filter((name) => windowsDevice.test(name))).toEqual([]);
      expect(Math.max(...names.map((name) => Buffer.byteLength(name)))).toBeLessThan(128);
      expect(readdirSync(join(named, 'news')).sort()).toEqual([...names].sort());
      expect(index.files).toEqual(expect.arrayContaining(Object.values(files)));
    } finally {
      rmSync(named, { recursive: true, force: true });
    }
  });
});
