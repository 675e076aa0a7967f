// Engine: PostgreSQL only: PostgreSQL's saved search index, read back by the next server on a database of its own.

import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildsSettledForTests,
  builtForTests,
  memoryAnswersForTests,
  valueFiltersForTests,
} from '../db/postgres/postgres-memory-search.js';
import {
  readSavedHeader,
  type SavedHeader,
  savedIndexesReadForTests,
  writeSavedHeader,
} from '../db/postgres/postgres-search-snapshot.js';
import { importCommand } from '../import/import-command.js';
import { foldForSearch } from '../search/search-folding.js';
import { SnapshotReader, SnapshotWriter } from '../search/search-snapshot-codec.js';
import { createTestDatabase, postgresForTests, runAdmin, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * PostgreSQL's search index saved at a clean stop and after `quire import`, and read back by the
 * next server on the machine (postgres-search-snapshot.ts): it answers at once, takes in what any
 * server wrote since it was saved (creates, updates, deletes), and is not read back for another
 * database, a search table made again, a damaged file or thousands of rows written since; the
 * server then says why in one line.
 */

const postgres = await postgresForTests();

const WORDS = ['harbour', 'kestrel', 'straße', 'café', 'lantern', 'meadow', 'quartz', 'ember', 'willow'];
const STATUSES = ['draft', 'published', 'archived'];
const dbOf = (server: PostgresTestServer) => server.database.db as unknown as Kysely<unknown>;
/** What a server logged of saved indexes it did not read back (its other lines are errors). */
const notRead = (server: PostgresTestServer) => server.errors.filter((said) => typeof said === 'string');

/** Rewrites the header of the saved index file at `path` as `change` makes it, the index left as it was. */
function rewriteHeader(path: string, change: (header: SavedHeader) => SavedHeader): void {
  const saved = readFileSync(path);
  const input = new SnapshotReader(new Uint8Array(saved).buffer);
  const header = readSavedHeader(input);
  if (!header) throw new Error('the saved file has no header');
  const output = new SnapshotWriter();
  writeSavedHeader(output, change(header));
  output.bytes(saved.subarray(input.offset));
  writeFileSync(path, Buffer.concat(output.finish()));
}

interface Modelled {
  id: string;
  title: string;
  slug: string;
  status: string;
}

describe.skipIf(!postgres.available)(`PostgreSQL's saved search index${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  const other = useTestDatabase(postgres.url);
  const worn = useTestDatabase(postgres.url);
  const busy = useTestDatabase(postgres.url);
  let dir: string;
  const servers: PostgresTestServer[] = [];
  /** The rows of `news` in the first database, as the servers answered their writes. */
  const rows = new Map<string, Modelled>();
  let made = 0;

  const start = async (on = database()) => {
    const server = await startPostgresTestServer(on.target, { searchIndexDir: dir, searchIndexMinRows: 1 });
    servers.push(server);
    return server;
  };

  async function create(server: PostgresTestServer, extra = ''): Promise<void> {
    made++;
    const title = `${WORDS[made % WORDS.length]} ${WORDS[(made * 7) % WORDS.length]} ${made}${extra}`;
    const created = await callApi(server, 'POST', '/cms/news', {
      title,
      status: STATUSES[made % 3],
      published_at: '2025-01-01 10:00:00',
    });
    expect(created.status).toBe(201);
    keep(created.body.rows[0]);
  }

  /** Creates a draft titled `title` on `server`, outside the model. */
  async function post(server: PostgresTestServer, title: string): Promise<void> {
    const created = await callApi(server, 'POST', '/cms/news', {
      title,
      status: 'draft',
      published_at: '2025-01-01 10:00:00',
    });
    expect(created.status).toBe(201);
  }

  function keep(row: Modelled): void {
    rows.set(row.id, { id: row.id, title: row.title, slug: row.slug, status: row.status });
  }

  /** A search on `server` (every match, in id order) against the model, answered by the index. */
  async function expectScanned(server: PostgresTestServer, keyword: string, status?: string): Promise<void> {
    const answers = memoryAnswersForTests(dbOf(server));
    const filtered = status === undefined ? '' : `&filter=${encodeURIComponent(`status=${status}`)}`;
    const listed = await callApi(
      server,
      'GET',
      `/cms/news?filter=${encodeURIComponent(`search=${keyword}`)}${filtered}&order=id&limit=500`,
    );
    expect(listed.status).toBe(200);
    const found = [...rows.values()]
      .filter((row) => status === undefined || row.status === status)
      .filter((row) => [row.title, row.slug].some((value) => foldForSearch(value).includes(foldForSearch(keyword))))
      .map((row) => row.id)
      .sort();
    expect(
      listed.body.rows.map((row: Modelled) => row.id),
      keyword,
    ).toEqual(found);
    expect(listed.body.filtered, keyword).toBe(found.length);
    expect(memoryAnswersForTests(dbOf(server)) - answers, keyword).toBe(2);
  }

  /** The saved index files under `dir`, by database folder. */
  const savedFiles = () =>
    readdirSync(dir).flatMap((folder) => readdirSync(join(dir, folder)).map((file) => join(folder, file)));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-saved-index-'));
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("is read back by the next server, which takes in every server's writes since", async () => {
    const a = await start();
    const b = await start();
    for (let batch = 0; batch < 6; batch++) await Promise.all(Array.from({ length: 20 }, () => create(a)));
    await builtForTests(dbOf(a), 'news');
    await expectScanned(a, 'kestrel');
    await a.close();
    expect(savedFiles().some((file) => file.endsWith(`${Buffer.from('news').toString('hex')}.bin`))).toBe(true);

    // Written after the saved snapshot, by a server still running: creates, updates, deletes.
    for (let i = 0; i < 10; i++) await create(b, ' nightjar');
    const ids = [...rows.keys()];
    for (const [i, id] of ids.slice(0, 10).entries()) {
      const updated = await callApi(b, 'PUT', `/cms/news/${id}`, {
        title: `osprey ${id.slice(-4)}`,
        status: STATUSES[i % 3],
      });
      expect(updated.status).toBe(200);
      keep(updated.body);
    }
    for (const id of ids.slice(10, 25)) {
      expect((await callApi(b, 'DELETE', `/cms/news/${id}`)).status).toBe(200);
      rows.delete(id);
    }

    const c = await start();
    await buildsSettledForTests(dbOf(c));
    expect(savedIndexesReadForTests(dbOf(c))).toBe(1);
    expect(notRead(c)).toEqual([]);
    for (const keyword of ['nightjar', 'osprey', 'kestrel', 'e', 'ar', 'straße', 'no-such-thing']) {
      await expectScanned(c, keyword);
      // Filtered by the select column's values saved with the index, and taken in since.
      for (const status of STATUSES) await expectScanned(c, keyword, status);
    }
    expect(valueFiltersForTests(dbOf(c), 'news')).toBeGreaterThanOrEqual(7 * STATUSES.length);
    expect(rows.size).toBe(120 + 10 - 15);
    // And it is kept in step from there, as a built one.
    await create(b, ' plover');
    await expectScanned(c, 'plover');
    await c.close();
    await b.close();
  }, 60_000);

  it('is saved however many rows were written since its build, and read back by the next server', async () => {
    const count = async (server: PostgresTestServer, keyword: string) =>
      (await callApi(server, 'GET', `/cms/news?filter=${encodeURIComponent(`search=${keyword}`)}&limit=1`)).body
        .filtered as number;
    const first = await start(worn());
    for (let i = 0; i < 40; i++) await post(first, `Heron ${i}`);
    await builtForTests(dbOf(first), 'news');
    // 20 of 60 rows written since the build, more than a quarter: a stop saved nothing then (below
    // a fifth and a thousand, no build again in the background).
    for (let i = 0; i < 20; i++) await post(first, `Bittern ${i}`);
    expect(await count(first, 'bittern')).toBe(20);
    await first.close();

    const second = await start(worn());
    await buildsSettledForTests(dbOf(second));
    expect(savedIndexesReadForTests(dbOf(second))).toBe(1);
    expect(await count(second, 'heron')).toBe(40);
    expect(await count(second, 'bittern')).toBe(20);
    await second.close();
  }, 60_000);

  it('is not read back for another database, nor after the search table was made again', async () => {
    // The other database's saved index replaced by the first one's: not read back there.
    const other1 = await start(other());
    await post(other1, 'Zebra only');
    await builtForTests(dbOf(other1), 'news');
    await other1.close();
    const folders = readdirSync(dir);
    const theirs = folders.find((folder) => folder.startsWith(`${other().name}-`));
    const mine = folders.find((folder) => folder.startsWith(`${database().name}-`));
    expect(theirs).toBeDefined();
    expect(mine).toBeDefined();
    cpSync(join(dir, String(mine)), join(dir, String(theirs)), { recursive: true });
    const other2 = await start(other());
    await buildsSettledForTests(dbOf(other2));
    expect(savedIndexesReadForTests(dbOf(other2))).toBe(0);
    expect(notRead(other2)).toEqual(['news: it was saved for another database']);
    const search = (keyword: string) =>
      callApi(other2, 'GET', `/cms/news?filter=${encodeURIComponent(`search=${keyword}`)}`);
    expect((await search('kestrel')).body.filtered).toBe(0);
    expect((await search('zebra')).body.filtered).toBe(1);
    await other2.close();

    // A file older than removed rows are kept (its clock moved back a week): built instead.
    const path = join(dir, String(mine), `${Buffer.from('news').toString('hex')}.bin`);
    rewriteHeader(path, (header) => ({ ...header, savedAt: header.savedAt - 7 * 24 * 3_600_000 }));
    const old = await start();
    await buildsSettledForTests(dbOf(old));
    expect(savedIndexesReadForTests(dbOf(old))).toBe(0);
    expect(notRead(old)).toEqual(["news: it was saved 7 days ago by the database's clock (it is trusted for 6 days)"]);
    await expectScanned(old, 'kestrel');
    // Its clean stop saved it again, in step: read back by the next server.
    await old.close();

    // A content-type change that makes the search table again (news gains a column).
    const d = await start();
    await buildsSettledForTests(dbOf(d));
    expect(savedIndexesReadForTests(dbOf(d))).toBe(1);
    const type = await callApi(d, 'GET', '/cms-content/news');
    expect(type.status).toBe(200);
    const columns = [...type.body.columns, { name: 'subtitle', label: 'Subtitle', type: 'text', required: false }];
    expect((await callApi(d, 'PUT', '/cms-content/news', { columns })).status).toBe(200);
    await d.close();
    const e = await start();
    await buildsSettledForTests(dbOf(e));
    await expectScanned(e, 'kestrel');
    expect(savedIndexesReadForTests(dbOf(e))).toBe(0);
    expect(notRead(e)).toEqual(['news: its search table was made again since it was saved']);
    await e.close();

    // A file saved for other searched columns: built instead.
    rewriteHeader(path, (header) => ({ ...header, columns: header.columns.slice(0, 1) }));
    const f = await start();
    await buildsSettledForTests(dbOf(f));
    expect(savedIndexesReadForTests(dbOf(f))).toBe(0);
    expect(notRead(f)).toEqual(['news: the searched columns changed since it was saved']);
    await expectScanned(f, 'kestrel');
    await f.close();

    // A damaged file (cut short): built instead, and the same answers.
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, Math.floor(whole.length / 2)));
    const cut = await start();
    await buildsSettledForTests(dbOf(cut));
    expect(savedIndexesReadForTests(dbOf(cut))).toBe(0);
    expect(notRead(cut)).toEqual(['news: its file is damaged or of another version']);
    await expectScanned(cut, 'kestrel');
    await cut.close();
  }, 60_000);

  it('is built again instead when thousands of rows were written since it was saved', async () => {
    const first = await start(busy());
    await post(first, 'Heron first');
    await builtForTests(dbOf(first), 'news');
    await first.close();
    // 1,200 rows written by another process since (an import, say): more than a quarter of the
    // index's rows and REBUILD_MIN (1,000), which it would cost more to take in one by one.
    const now = '2025-01-01 10:00:00';
    await runAdmin(
      busy().target,
      `with made as (insert into news (id, title, slug, status, published_at, created_at, updated_at)
        select 'busy-' || k, 'Curlew ' || k, 'curlew-' || k, 'draft', '${now}', '${now}', '${now}'
        from generate_series(1, 1200) as k returning id, title, slug)
      insert into "quire_search:news" (id, title, slug) select id, lower(title), slug from made`,
    );
    const second = await start(busy());
    await buildsSettledForTests(dbOf(second));
    expect(savedIndexesReadForTests(dbOf(second))).toBe(0);
    expect(notRead(second)).toEqual(['news: 1200 rows were written since it was saved (building it again is quicker)']);
    const found = await callApi(second, 'GET', `/cms/news?filter=${encodeURIComponent('search=curlew')}&limit=1`);
    expect(found.body.filtered).toBe(1200);
    await second.close();
  }, 60_000);

  it('is saved by quire import for the first server on the database', async () => {
    const lines = Array.from({ length: 25_000 }, (_, k) =>
      JSON.stringify({
        title: `${WORDS[k % WORDS.length]} bulk ${k}`,
        status: 'draft',
        published_at: '2025-02-01 09:00:00',
      }),
    );
    const file = join(dir, 'bulk.ndjson');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const out = Object.assign(
      new Writable({
        write(chunk, _encoding, done) {
          out.text += String(chunk);
          done();
        },
      }),
      { text: '' },
    );
    const code = await importCommand(
      ['--database', other().url, '--type', 'news', file],
      { out, err: out },
      {
        searchIndexDir: dir,
      },
    );
    expect(code, out.text).toBe(0);
    expect(out.text).toMatch(/, search index saved for the next start in [\d.]+ s\n$/);
    const f = await start(other());
    await buildsSettledForTests(dbOf(f));
    expect(savedIndexesReadForTests(dbOf(f))).toBe(1);
    const answers = memoryAnswersForTests(dbOf(f));
    const found = await callApi(f, 'GET', `/cms/news?filter=${encodeURIComponent('search=bulk 2499')}&order=id`);
    expect(found.body.filtered).toBe(11);
    expect(memoryAnswersForTests(dbOf(f)) - answers).toBe(2);
    await f.close();
  }, 120_000);
  it('is built at each start, neither saved nor read back, where pg_control_system() is refused', async () => {
    // A user who owns its database but may not read the cluster's identity (as some hosted
    // PostgreSQL services do): the server starts, searches from a built index, and says why.
    if (!postgres.available) throw new Error('unreachable: the suite is skipped without PostgreSQL');
    const role = `quire_test_noctl_${randomBytes(4).toString('hex')}`;
    const owned = await createTestDatabase(postgres.url);
    await runAdmin(postgres.target, `create role ${role} login`);
    try {
      await runAdmin(postgres.target, `alter database "${owned.name}" owner to ${role}`);
      await runAdmin(owned.target, 'revoke execute on function pg_control_system() from public');
      const server = await startPostgresTestServer(
        { ...owned.target, user: role },
        { searchIndexDir: dir, searchIndexMinRows: 1 },
      );
      servers.push(server);
      expect(server.errors.map((error) => String((error as Error).message ?? error))).toEqual([
        expect.stringMatching(/pg_control_system/),
      ]);
      const created = await callApi(server, 'POST', '/cms/news', {
        title: 'Heron alone',
        status: 'draft',
        published_at: '2025-01-01 10:00:00',
      });
      expect(created.status).toBe(201);
      const answers = memoryAnswersForTests(dbOf(server));
      expect(
        (await callApi(server, 'GET', `/cms/news?filter=${encodeURIComponent('search=heron')}`)).body.filtered,
      ).toBe(1);
      expect(memoryAnswersForTests(dbOf(server)) - answers).toBe(2);
      await server.close();
      expect(readdirSync(dir).some((folder) => folder.startsWith(`${owned.name}-`))).toBe(false);
      // quire import puts the rows in, and says in one line why their index was not saved.
      const file = join(dir, 'one.ndjson');
      writeFileSync(
        file,
        `${JSON.stringify({ title: 'Egret', status: 'draft', published_at: '2025-02-01 09:00:00' })}\n`,
      );
      let said = '';
      const sink = new Writable({
        write(chunk, _encoding, done) {
          said += String(chunk);
          done();
        },
      });
      const url = new URL(owned.url);
      url.username = role;
      const code = await importCommand(
        ['--database', url.toString(), '--type', 'news', file],
        { out: sink, err: sink },
        {
          searchIndexDir: dir,
          searchIndexMinRows: 1,
        },
      );
      expect(code, said).toBe(0);
      expect(said).toMatch(
        /^quire import: the search index was not saved for the next start \(.*pg_control_system.*\); a server builds it at its first search\nImported 1 news rows [^\n]*\n$/,
      );
    } finally {
      await owned.drop();
      await runAdmin(postgres.target, `drop role ${role}`);
    }
  });
});
