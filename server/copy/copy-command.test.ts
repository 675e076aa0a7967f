import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { startServer } from '../server.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { startPostgresTestServer } from '../test-support/postgres-server.js';
import { gifImage, pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { copyCommand } from './copy-command.js';

/** `quire copy` (issue 12): a whole site from SQLite to PostgreSQL and back, nothing lost. */

const postgres = await postgresForTests();
const SECRET = 'Sekr3tPassw0rd';

/** Runs `quire copy` in this process, collecting what it prints. */
async function copy(args: string[]) {
  let out = '';
  let err = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const code = await copyCommand(args, { out: sink((t) => (out += t)), err: sink((t) => (err += t)) });
  return { code, out, err };
}

async function api(origin: string, method: string, url: string, json?: unknown) {
  const response = await fetch(`${origin}/api${url}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as any };
}

async function upload(origin: string, bytes: Uint8Array, name: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(`${origin}/api/uploads`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { path: string }).path;
}

const COLUMNS = [
  { name: 'f_text', label: 'Text', type: 'text', required: true },
  { name: 'f_textarea', label: 'Long', type: 'textarea', required: false },
  { name: 'f_markdown', label: 'Md', type: 'markdown', required: false },
  { name: 'f_slug', label: 'Slug', type: 'slug', required: false, parent: 'f_text' },
  { name: 'f_select', label: 'Select', type: 'select', required: false, options: [{ id: 'a', text: 'A' }] },
  { name: 'f_datetime', label: 'When', type: 'datetime', required: false },
  { name: 'f_date', label: 'Day', type: 'date', required: false },
  { name: 'f_number', label: 'Num', type: 'number', required: false },
  { name: 'f_boolean', label: 'Flag', type: 'boolean', required: false },
  { name: 'f_image', label: 'Image', type: 'image', required: false },
  { name: 'f_tags', label: 'Tags', type: 'tags', required: false },
  { name: 'f_relation', label: 'Rel', type: 'relation', required: false, target: 'categories' },
];

/** Everything a site shows through the API: types, every row of every type, the uploads' bytes. */
async function siteThroughApi(origin: string, uploads: readonly string[]) {
  const types = (await api(origin, 'GET', '/cms-content')).body;
  const rows: Record<string, unknown> = {};
  for (const table of ['news', 'categories', 'every_type']) {
    rows[table] = (await api(origin, 'GET', `/cms/${table}?limit=100&order=id`)).body.rows;
  }
  const media: string[] = [];
  for (const path of uploads) {
    const response = await fetch(`${origin}${path}`);
    expect(response.status).toBe(200);
    media.push(Buffer.from(await response.arrayBuffer()).toString('base64'));
  }
  return { types, rows, media };
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!postgres.available)(`quire copy between SQLite and PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let source: TestServer;
  let dir: string;
  const uploads: string[] = [];
  let before: Awaited<ReturnType<typeof siteThroughApi>>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-copy-'));
    source = await startTestServer();
    uploads.push(await upload(source.origin, pngImage(), 'a.png'), await upload(source.origin, gifImage(), 'b.gif'));
    const created = await api(source.origin, 'POST', '/cms-content', {
      title: 'Every type',
      table: 'every_type',
      columns: COLUMNS,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const categories: string[] = [];
    for (const title of ['Über', 'Second']) {
      categories.push((await api(source.origin, 'POST', '/cms/categories', { title })).body.id);
    }
    for (const [index, image] of uploads.entries()) {
      const row = await api(source.origin, 'POST', '/cms/every_type', {
        f_text: `Row ${index} Ärger`,
        f_textarea: 'two\nlines',
        f_markdown: '# heading',
        f_select: 'a',
        f_datetime: '2025-01-01 10:00:00',
        f_date: '2025-02-01',
        f_number: index + 0.5,
        f_boolean: index === 0,
        f_image: image,
        f_tags: ['x', `tag-${index}`],
        f_relation: categories[index],
      });
      expect(row.status, JSON.stringify(row.body)).toBe(201);
    }
    const news = await api(source.origin, 'POST', '/cms/news', {
      title: 'With meta',
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
      meta: { title: 'T', description: 'D', keywords: 'a, b' },
    });
    expect(news.status, JSON.stringify(news.body)).toBe(201);
    before = await siteThroughApi(source.origin, uploads);
    // What the copies are compared with is the whole site, not an error or an empty list.
    expect(before.rows.every_type).toEqual([
      expect.objectContaining({
        f_tags: ['x', 'tag-0'],
        f_boolean: true,
        f_number: 0.5,
        created_at: expect.any(String),
      }),
      expect.objectContaining({ f_image: uploads[1], f_relation: expect.objectContaining({ title: 'Second' }) }),
    ]);
    expect(before.rows.news).toEqual([
      expect.objectContaining({ meta: { title: 'T', description: 'D', keywords: 'a, b' } }),
    ]);
    expect(before.types.content_types.map((type: { table: string }) => type.table)).toContain('every_type');
    await source.stop();
  });
  afterAll(async () => {
    await source?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('moves a site to PostgreSQL and back with every row, field and upload, leaving each source as it was', async () => {
    const fileBefore = readFileSync(source.dbFile);
    const toPostgres = await copy(['--from', source.dbFile, '--to', database().url]);
    expect(toPostgres, toPostgres.err).toMatchObject({ code: 0 });
    expect(toPostgres.out).toMatch(
      /^Copied \d+ content types, 5 rows and 2 uploads from .* to 127\.0\.0\.1:\d+\/\S+; counts checked\n$/,
    );
    expect(readFileSync(source.dbFile).equals(fileBefore)).toBe(true);

    const onPostgres = await startPostgresTestServer(database().target);
    try {
      expect(await siteThroughApi(onPostgres.origin, uploads)).toEqual(before);
      // Search reaches the copied rows: they were indexed the engine's way.
      const found = await api(onPostgres.origin, 'GET', `/cms/every_type?filter=${encodeURIComponent('search=ärger')}`);
      expect(found.body.rows).toHaveLength(2);
    } finally {
      await onPostgres.close();
    }

    const counts = async () => {
      const pg = await openPostgresDatabase(database().target);
      try {
        const { rows } = await sql<{ n: string }>`select
          (select count(*) from every_type) + (select count(*) from categories) + (select count(*) from news)
          + (select count(*) from quire_media) + (select count(*) from quire_content_types) as n`.execute(pg.db);
        return Number(rows[0].n);
      } finally {
        await pg.close();
      }
    };
    const pgBefore = await counts();
    const back = join(dir, 'back', 'quire.sqlite');
    const toSqlite = await copy(['--from', database().url, '--to', back]);
    expect(toSqlite, toSqlite.err).toMatchObject({ code: 0 });
    expect(await counts()).toBe(pgBefore);

    const onSqlite = await startServer({
      dbFile: back,
      port: 0,
      host: '127.0.0.1',
      editorName: 'tester',
      backups: false,
    });
    try {
      expect(await siteThroughApi(onSqlite.origin, uploads)).toEqual(before);
    } finally {
      await onSqlite.close();
    }
  });

  it('refuses a target with content unless --force, which replaces it', async () => {
    const refused = await copy(['--from', source.dbFile, '--to', database().url]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^quire copy: the target is not empty \(.*\); pass --force to replace its content\n$/);
    const forced = await copy(['--from', source.dbFile, '--to', database().url, '--force']);
    expect(forced, forced.err).toMatchObject({ code: 0 });
    const onPostgres = await startPostgresTestServer(database().target);
    try {
      expect(await siteThroughApi(onPostgres.origin, uploads)).toEqual(before);
    } finally {
      await onPostgres.close();
    }
  });

  it('leaves the target as it was when the copy fails part-way (its uploads cannot be written)', async () => {
    const target = join(dir, 'blocked', 'quire.sqlite');
    const fresh = await openDatabase(target);
    const typesBefore = await fresh.db.selectFrom('quire_content_types').select('id').orderBy('id').execute();
    await fresh.close();
    // A file where the media folder would go: the rows are in, then writing the first upload fails.
    writeFileSync(join(dir, 'blocked', 'media'), 'not a folder');
    const result = await copy(['--from', database().url, '--to', target]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^quire copy: copy failed: [^\n]*\n$/);
    const after = await openDatabase(target);
    try {
      expect(await after.db.selectFrom('quire_content_types').select('id').orderBy('id').execute()).toEqual(
        typesBefore,
      );
      expect(await after.engine.schema.hasTable(after.db as never, 'every_type')).toBe(false);
    } finally {
      await after.close();
    }
  });

  it('says in one line, without the password, that an unreachable target cannot be used', async () => {
    const url = `postgres://quire:${SECRET}@127.0.0.1:${await closedPort()}/site?connect_timeout=2`;
    const result = await copy(['--from', source.dbFile, '--to', url]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/^quire copy: .*127\.0\.0\.1:\d+.*\n$/);
    expect(result.err).not.toContain(SECRET);
  });
});
