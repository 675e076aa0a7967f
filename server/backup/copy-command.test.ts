// Engine: both in one run: it copies a SQLite test server's site to a PostgreSQL database of its own (skipped, saying
// why, without PostgreSQL) and back.

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { buildsSettledForTests } from '../db/postgres/postgres-memory-search.js';
import { savedIndexesReadForTests } from '../db/postgres/postgres-search-snapshot.js';
import { startServer } from '../server.js';
import { indexWalkHeapFetches, postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { startPostgresTestServer } from '../test-support/postgres-server.js';
import { api, buildSite, siteThroughApi } from '../test-support/site-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { copyCommand } from './copy-command.js';

/** `quire copy`: a whole site from SQLite to PostgreSQL and back, nothing lost. */

const postgres = await postgresForTests();
const SECRET = 'Sekr3tPassw0rd';

/** Runs `quire copy` in this process, collecting what it prints. */
async function copy(args: string[], options: Parameters<typeof copyCommand>[2] = {}) {
  let out = '';
  let err = '';
  const sink = (append: (text: string) => void) =>
    new Writable({
      write(chunk, _encoding, done) {
        append(String(chunk));
        done();
      },
    });
  const code = await copyCommand(args, { out: sink((t) => (out += t)), err: sink((t) => (err += t)) }, options);
  return { code, out, err };
}

/** The site's languages the source is given. */
const LANGUAGES = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};

/** What `/api/starters` says of the first run's choice. */
function choiceOf(body: { choice: unknown; chosen_by: unknown; chosen_at: unknown }) {
  return { choice: body.choice, chosen_by: body.chosen_by, chosen_at: body.chosen_at };
}

/** The first run's choice a server on the copied site shows. */
async function starterChoiceOn(origin: string) {
  const answer = await api(origin, 'GET', '/starters');
  expect(answer.status).toBe(200);
  return choiceOf(answer.body);
}

/** The audit log a server on a site shows, oldest event first. */
async function auditOn(origin: string): Promise<Record<string, unknown>[]> {
  const answer = await api(origin, 'GET', '/audit?limit=100');
  expect(answer.status).toBe(200);
  return [...answer.body.events].reverse();
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
  let starterChoice: ReturnType<typeof choiceOf>;
  /** The source's audit log: its content types' creation, at least. */
  let auditBefore: Record<string, unknown>[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'quire-copy-'));
    source = await startTestServer();
    uploads.push(...(await buildSite(source.origin)));
    before = await siteThroughApi(source.origin, uploads);
    // The first run's choice, recorded on the source: a copy keeps it made.
    const chosen = await api(source.origin, 'POST', '/starters', { set: 'keep' });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    starterChoice = choiceOf(chosen.body);
    expect(starterChoice).toEqual({ choice: 'keep', chosen_by: expect.any(String), chosen_at: expect.any(String) });
    // The site's languages: a copy keeps them.
    const languages = await api(source.origin, 'PUT', '/locales', LANGUAGES);
    expect(languages.status, JSON.stringify(languages.body)).toBe(200);
    auditBefore = await auditOn(source.origin);
    expect(auditBefore.map((event) => event.action)).toContain('content_type.created');
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
      expect(await starterChoiceOn(onPostgres.origin)).toEqual(starterChoice);
      expect((await api(onPostgres.origin, 'GET', '/locales')).body).toEqual(LANGUAGES);
      expect(await auditOn(onPostgres.origin)).toEqual(auditBefore);
      // The copy's next event is numbered after the copied ones.
      await onPostgres.services.audit?.record({ action: 'token.created', actor: 'cli', target: 'after-copy' });
      const events = await auditOn(onPostgres.origin);
      expect(events.at(-1)).toMatchObject({ target: 'after-copy', id: Number(auditBefore.at(-1)?.id) + 1 });
      auditBefore = events;
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
      expect(await starterChoiceOn(onSqlite.origin)).toEqual(starterChoice);
      expect((await api(onSqlite.origin, 'GET', '/locales')).body).toEqual(LANGUAGES);
      expect(await auditOn(onSqlite.origin)).toEqual(auditBefore);
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
  it("saves each content type's search index for the first server on the target", async () => {
    // Every table counts as large here (20,000 rows up otherwise).
    const searchIndexes = { folder: join(dir, 'indexes'), minRows: 1 };
    const toPostgres = await copy(['--from', source.dbFile, '--to', database().url, '--force'], { searchIndexes });
    expect(toPostgres, toPostgres.err).toMatchObject({ code: 0 });
    // One line in a pipe: the copy's summary with the indexes' time folded in.
    expect(toPostgres.out).toMatch(
      /^Copied \d+ content types, 5 rows and 2 uploads from [^\n]*; counts checked, search indexes of [1-9]\d* content types saved for the next start in [\d.]+ s\n$/,
    );
    // VACUUMed after the copy, as after an import: index walks read no table page.
    const pg = await openPostgresDatabase(database().target);
    try {
      expect(await indexWalkHeapFetches(pg.db, 'every_type')).toBe(0);
    } finally {
      await pg.close();
    }
    const onPostgres = await startPostgresTestServer(database().target, { searchIndexDir: join(dir, 'indexes') });
    try {
      await buildsSettledForTests(onPostgres.database.db as never);
      expect(savedIndexesReadForTests(onPostgres.database.db as never)).toBeGreaterThan(0);
      const found = await api(onPostgres.origin, 'GET', `/cms/every_type?filter=${encodeURIComponent('search=ärger')}`);
      expect(found.body.rows).toHaveLength(2);
    } finally {
      await onPostgres.close();
    }
    const back = join(dir, 'indexed', 'quire.sqlite');
    const toSqlite = await copy(['--from', database().url, '--to', back], { searchIndexes });
    expect(toSqlite, toSqlite.err).toMatchObject({ code: 0 });
    expect(toSqlite.out).toMatch(
      /^Copied [^\n]*; counts checked, search indexes of [1-9]\d* content types saved for the next start in [\d.]+ s\n$/,
    );
    expect(readdirSync(`${back}-search-index`).length).toBeGreaterThan(0);
  });
});
