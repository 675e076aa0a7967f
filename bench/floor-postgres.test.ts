import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresForTests, skipNote, type TestDatabase } from '../server/test-support/postgres.js';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { freePort, startServer, stop } from './processes.mjs';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { copyFloor } from './sqlite-bench.mjs';

const bench = import.meta.dirname;
const shared = process.env.QUIRE_SHARED_BENCH ?? join(bench, '..', '..', 'shared', 'bench');
const hasShared = existsSync(join(shared, 'limit-server.mjs'));
const postgres = await postgresForTests();
const ROWS = 300;
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const enc = encodeURIComponent;

/** Lists the two floors must answer alike: every order and direction, filters, and searches. */
const LISTS = [
  '',
  'limit=1000',
  ...['id', 'slug', 'title', 'status', 'published_at', 'created_at', 'updated_at'].flatMap((order) => [
    `order=${order}&limit=7&offset=20`,
    `order=${order}&desc=true&limit=7&offset=290`,
  ]),
  `filter=${enc('status=draft')}&order=published_at&desc=true&limit=20&offset=40`,
  `filter=${enc('status=archived')}&order=title&limit=500`,
  // ASCII letters fold both ways; other letters only match as written (SQLite's LIKE folds ASCII only).
  ...['zulu', 'ZULU', 'über', 'Über', 'ÜBER', 'caf', 'ñ', 'alpha bravo', 'ta', 'a_p', '%', '1'].map(
    (keyword) => `filter=${enc(`search=${keyword}`)}&limit=500`,
  ),
  // In slugs only: the title's ñ is `n-` there.
  `filter=${enc('search=jalapen-o')}&order=title&limit=500`,
  `filter=${enc('search=zulu')}&filter=${enc('status=published')}&order=published_at&desc=true&limit=5&offset=5`,
];

// The PostgreSQL floor answers as the SQLite floor (../shared/bench/limit-server.mjs) does on the same rows.
describe.skipIf(!hasShared || !postgres.available)(
  `the PostgreSQL floor (needs ../shared/bench and PostgreSQL)${hasShared ? skipNote(postgres) : ' (skipped: no ../shared/bench)'}`,
  () => {
    let dir: string;
    let database: TestDatabase;
    let sqliteBase: string;
    let postgresBase: string;
    const servers: ChildProcess[] = [];

    async function start(name: string, script: string, where: string) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const args = [join(bench, script), where, String(port), String(ROWS)];
      servers.push((await startServer(name, process.execPath, args, `${base}/api/cms/news?limit=1`, 15_000)).child);
      return base;
    }

    const both = async (path: string, init?: RequestInit) => {
      const answers = await Promise.all([sqliteBase, postgresBase].map((base) => fetch(`${base}${path}`, init)));
      return Promise.all(answers.map(async (response) => ({ status: response.status, body: await response.json() })));
    };

    beforeAll(async () => {
      // As run-bench.mjs does: the copies beside bench/ find better-sqlite3 and pg in this repository.
      copyFloor(shared, bench);
      dir = mkdtempSync(join(tmpdir(), 'quire-floor-pg-'));
      database = await createTestDatabase(postgres.url);
      sqliteBase = await start('sqlite floor', 'floor-writes.mjs', join(dir, 'floor.db'));
      postgresBase = await start('postgres floor', 'floor-postgres.mjs', database.url);
    }, 30_000);
    afterAll(async () => {
      await Promise.all(servers.map((child) => stop(child)));
      await database?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('lists the same rows with the same exact counts, in every order, filter and search', async () => {
      let matched = 0;
      for (const query of LISTS) {
        const [sqlite, pg] = await both(`/api/cms/news?${query}`);
        expect(sqlite.status, query).toBe(200);
        expect(pg, query).toEqual(sqlite);
        expect(pg.body.total).toBe(ROWS);
        if (pg.body.filtered > 0 && pg.body.filtered < ROWS) matched++;
      }
      // Every filter and search picks some rows out, but `%`, which matches all of them.
      expect(matched).toBe(LISTS.filter((query) => query.includes('filter=')).length - 1);
      // Ü matches only itself: `ÜBER` finds the titles that begin with Über, `über` the others.
      const count = async (keyword: string) =>
        (await both(`/api/cms/news?filter=${enc(`search=${keyword}`)}&limit=1`))[1].body.filtered;
      const [upper, title, lower] = [await count('ÜBER'), await count('Über'), await count('über')];
      expect(upper).toBe(title);
      expect(lower).toBeGreaterThan(0);
      expect(upper + lower).toBeLessThanOrEqual(ROWS);
    });

    it('gets a row by id the same, and 404s an unknown id or filter', async () => {
      for (const id of ['1', '150', String(ROWS)]) {
        const [sqlite, pg] = await both(`/api/cms/news/${id}`);
        expect(sqlite).toMatchObject({ status: 200, body: { count: 1 } });
        expect(pg).toEqual(sqlite);
      }
      const [missingSqlite, missingPg] = await both('/api/cms/news/999');
      expect([missingSqlite.status, missingPg.status]).toEqual([404, 404]);
      const [badSqlite, badPg] = await both(`/api/cms/news?filter=${enc('nope=1')}`);
      expect([badSqlite.status, badPg.status]).toEqual([400, 400]);
    });

    it('creates a row with a new id and slug, counted at once in total and filtered', async () => {
      const body = 'title=Floor+Made+row&status=archived&published_at=2026-01-01+00%3A00%3A00';
      const created = await both('/api/cms/news', { method: 'POST', headers: form, body });
      for (const { status, body: answer } of created) {
        expect(status).toBe(201);
        expect(answer.rows[0]).toMatchObject({
          id: answer.id,
          slug: `floor-made-row-${answer.id.slice(0, 8)}`,
          title: 'Floor Made row',
          status: 'archived',
          published_at: '2026-01-01 00:00:00',
          meta: null,
          created_by: null,
        });
        expect(answer.id).toMatch(/^[0-9a-f-]{36}$/);
      }
      const [sqlite, pg] = await both(
        `/api/cms/news?filter=${enc('search=made ROW')}&filter=${enc('status=archived')}`,
      );
      expect(pg.body).toMatchObject({ total: ROWS + 1, filtered: 1, count: 1 });
      expect(sqlite.body).toMatchObject({ total: ROWS + 1, filtered: 1, count: 1 });
      const [gotSqlite, gotPg] = await Promise.all(
        [sqliteBase, postgresBase].map(async (base, i) =>
          (await fetch(`${base}/api/cms/news/${created[i].body.id}`)).json(),
        ),
      );
      expect(gotPg.rows).toEqual(created[1].body.rows);
      expect(gotSqlite.rows).toEqual(created[0].body.rows);
    });

    it('updates the fields given (PATCH and PUT), keeps the others, and 404s an unknown id', async () => {
      const [before] = await both('/api/cms/news/7');
      const patched = await both('/api/cms/news/7', { method: 'PATCH', headers: form, body: 'title=Patched+title' });
      const put = await both('/api/cms/news/8', { method: 'PUT', headers: form, body: 'status=archived' });
      for (const [sqlite, pg] of [patched, put]) {
        expect(sqlite.status).toBe(200);
        const { updated_at: _s, ...sqliteRow } = sqlite.body.rows[0];
        const { updated_at: _p, ...pgRow } = pg.body.rows[0];
        expect(pgRow).toEqual(sqliteRow);
        expect(pg.body.rows[0].updated_at).not.toBe(before.body.rows[0].updated_at);
      }
      expect(patched[1].body.rows[0]).toMatchObject({ title: 'Patched title', status: before.body.rows[0].status });
      const [, after] = await both('/api/cms/news/7');
      expect(after.body.rows).toEqual(patched[1].body.rows);
      const missing = await both('/api/cms/news/999', { method: 'PATCH', headers: form, body: 'title=x' });
      expect(missing.map((answer) => answer.status)).toEqual([404, 404]);
      const [sqlite, pg] = await both(`/api/cms/news?filter=${enc('search=PATCHED')}`);
      expect(pg.body).toMatchObject({ total: ROWS + 1, filtered: 1, count: 1 });
      expect(sqlite.body).toMatchObject({ total: ROWS + 1, filtered: 1, count: 1 });
    });
  },
);
