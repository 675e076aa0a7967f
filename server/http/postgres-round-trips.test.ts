// Engine: PostgreSQL only: it counts PostgreSQL's round trips per read and write on a database of its own.

import net from 'node:net';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { poolConfig } from '../db/postgres/postgres-connection.js';
import { buildsSettledForTests } from '../db/postgres/postgres-memory-search.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import { postgresForTests, sessionsWaitingOnLocks, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { callApi as call, type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';

/**
 * Rows read and written on PostgreSQL send their statements in few round trips: a
 * write's bookkeeping (change number, search text, revision), the new row itself and the check that
 * the content types are still as loaded go with the COMMIT, the slug lock with the slug read where
 * a create reads one (later-statements.ts); reads arriving together go down one connection in one write
 * (postgres-shared-reads.ts). Counted here as the times the server's sockets to PostgreSQL hand
 * bytes to the kernel, beside the statements they carry.
 */

const postgres = await postgresForTests();

/** No poll: the scheduler's own statements would count among the writes'. */
const quiet = { scheduler: { pollMs: 0 } };

describe.skipIf(!postgres.available)(`row reads and writes on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let server: PostgresTestServer;
  /** While recording: the statements sent and the socket writes to PostgreSQL. */
  let recording: { statements: string[]; writes: number } | null = null;

  beforeAll(async () => {
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [text] = args;
      recording?.statements.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      return (query as (...all: unknown[]) => unknown).apply(this, args);
    } as typeof query);
    const port = database().target.port;
    for (const method of ['_write', '_writev'] as const) {
      const own = net.Socket.prototype[method] as (...args: unknown[]) => void;
      vi.spyOn(net.Socket.prototype, method).mockImplementation(function (this: net.Socket, ...args: unknown[]) {
        if (recording && this.remotePort === port) recording.writes++;
        return own.apply(this, args);
      } as never);
    }
    server = await startPostgresTestServer(database().target, quiet);
  });
  afterAll(async () => {
    await server?.close();
    vi.restoreAllMocks();
  });

  /** What `work` sends to PostgreSQL. */
  async function sentBy(work: () => Promise<void>): Promise<{ statements: string[]; writes: number }> {
    await buildsSettledForTests(server.database.db as unknown as Kysely<unknown>);
    recording = { statements: [], writes: 0 };
    try {
      await work();
      return recording;
    } finally {
      recording = null;
    }
  }

  const body = (title: string) => ({ title, status: 'draft', published_at: '2026-01-01 10:00:00' });

  it('creates a row of a new title in one round trip: [BEGIN, slug lock, row, bookkeeping, type check, revision, change, COMMIT]', async () => {
    // The first write of a type prepares its statements: not counted.
    expect((await call(server, 'POST', '/cms/news', body('Warm up'))).status).toBe(201);
    let id = '';
    const create = await sentBy(async () => {
      const created = await call(server, 'POST', '/cms/news', body('Harbour festival'));
      expect(created.status).toBe(201);
      id = created.body.id as string;
    });
    expect(create.statements.map((text) => text.trim().split(/\s+/).slice(0, 3).join(' '))).toEqual([
      'begin',
      'select pg_advisory_xact_lock(hashtextextended($1, 0))',
      // No slug read: a title without a hint is taken as it is, the unique index the judge.
      'insert into "news"',
      'insert into "quire_row_changes"',
      'insert into "quire_search:news"',
      // No other server changed the content types since these were loaded (postgres-registry-check.ts).
      'select "quire_registry_is"($1)',
      // Observers of every write run last: the revision, then the change feed's entry (its position
      // is not read back: no hook wants it).
      'insert into "quire_revisions"',
      'insert into "quire_changes"',
      'commit',
    ]);
    expect(create.writes).toBe(1);
    // All of it was kept, and reads see it.
    const got = await call(server, 'GET', `/cms/news/${id}`);
    expect(got.body.rows[0].slug).toBe('harbour-festival');
    const history = await call(server, 'GET', `/cms/news/${id}/revisions`);
    expect(history.body.revisions).toHaveLength(1);
    const found = await call(server, 'GET', '/cms/news?filter=search=harbour');
    expect(found.body.rows.map((row: { id: string }) => row.id)).toEqual([id]);
  });

  it('waits for the change feed position only where a hook takes the type: its event carries the cursor', async () => {
    const hook = await call(server, 'POST', '/hooks', { url: 'http://127.0.0.1:9/build', content_types: ['news'] });
    expect(hook.status).toBe(201);
    try {
      expect((await call(server, 'POST', '/cms/news', body('Hooked warm up'))).status).toBe(201);
      let id = '';
      const create = await sentBy(async () => {
        const created = await call(server, 'POST', '/cms/news', body('Ferry timetable'));
        expect(created.status).toBe(201);
        id = created.body.id;
      });
      expect(create.statements.find((text) => text.includes('insert into "quire_changes"'))).toMatch(/returning/);
      expect(create.statements.some((text) => text.includes('insert into "quire_hook_outbox"'))).toBe(true);
      expect(create.writes).toBe(2);
      const feed = await call(server, 'GET', '/changes?since=0&limit=1000');
      const change = feed.body.changes.findLast((each: { id: string }) => each.id === id);
      const queued = await server.database.db
        .selectFrom('quire_hook_outbox' as never)
        .select(['cursor' as never])
        .where('row_id' as never, '=', id as never)
        .executeTakeFirstOrThrow();
      expect((queued as { cursor: string }).cursor).toBe(change.cursor);
    } finally {
      expect((await call(server, 'DELETE', `/hooks/${hook.body.id}`)).status).toBe(200);
    }
    // Without the hook, a create is one round trip again.
    const after = await sentBy(async () => {
      expect((await call(server, 'POST', '/cms/news', body('Ferry timetable two'))).status).toBe(201);
    });
    expect(after.writes).toBe(1);
  });

  it('sends the reads of gets arriving together down one connection, in one write', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const created = await call(server, 'POST', '/cms/news', body(`Shared read ${i}`));
      ids.push(created.body.id as string);
    }
    // The gets' own read, as the server's reader runs it (their HTTP path is row-routes.ts's).
    const { db, engine } = server.database;
    const reader = new ContentRepository({ db, engine });
    const getAll = () => Promise.all(ids.map((id) => reader.findByIdMarked('news', id, [])));
    // A statement is prepared once per connection: every pooled one has it first.
    for (let round = 0; round < 3; round++) await Promise.all([getAll(), getAll(), getAll()]);
    let titles: unknown[] = [];
    const gets = await sentBy(async () => {
      titles = (await getAll()).map((found) => found.rows[0]?.title);
    });
    expect(titles).toEqual(ids.map((_, i) => `Shared read ${i}`));
    // One statement a get, all in one write (one each when every read took a connection of its own).
    expect(gets.statements.filter((text) => /^select/i.test(text.trim()))).toHaveLength(ids.length);
    expect(gets.writes).toBe(1);
  });

  it('updates and deletes a row in two: [BEGIN, row read and locked], [write, bookkeeping, type check, revision, change, COMMIT]', async () => {
    const id = (await call(server, 'POST', '/cms/news', body('River market'))).body.id as string;
    const update = await sentBy(async () => {
      expect((await call(server, 'PATCH', `/cms/news/${id}`, { status: 'published' })).status).toBe(200);
    });
    expect(update.statements[1]).toMatch(/ for update$/);
    expect(update.writes).toBe(2);
    expect((await call(server, 'GET', `/cms/news/${id}`)).body.rows[0].status).toBe('published');
    const removal = await sentBy(async () => {
      expect((await call(server, 'DELETE', `/cms/news/${id}`)).status).toBe(200);
    });
    expect(removal.writes).toBe(2);
    expect((await call(server, 'GET', `/cms/news/${id}`)).status).toBe(404);
  });

  it('writes one row twice at once as one after the other: the second reads the row as the first left it', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push((await call(server, 'POST', '/cms/news', body(`Quay ${i}`))).body.id as string);
    // Each row's title and status changed by two requests in flight together.
    await Promise.all(
      ids.flatMap((id, i) => [
        call(server, 'PATCH', `/cms/news/${id}`, { title: `Lighthouse ${i}` }),
        call(server, 'PATCH', `/cms/news/${id}`, { status: 'published' }),
      ]),
    );
    for (const [i, id] of ids.entries()) {
      const row = (await call(server, 'GET', `/cms/news/${id}`)).body.rows[0];
      expect([row.title, row.status]).toEqual([`Lighthouse ${i}`, 'published']);
      // The newest revision holds the row as stored, and the search text follows it: without the
      // lock the later write would have kept what it read before the other's commit.
      const newest = (await call(server, 'GET', `/cms/news/${id}/revisions`)).body.revisions[0];
      const revision = (await call(server, 'GET', `/cms/news/${id}/revisions/${newest.id}`)).body;
      expect([revision.row.title, revision.row.status]).toEqual([`Lighthouse ${i}`, 'published']);
      const found = await call(server, 'GET', `/cms/news?filter=search=${encodeURIComponent(`lighthouse ${i}`)}`);
      expect(found.body.rows.map((each: { id: string }) => each.id)).toContain(id);
    }
  });

  it('still refuses a taken slug with its field, the failed row insert sent later undoing the whole write', async () => {
    expect((await call(server, 'POST', '/cms/news', { ...body('One'), slug: 'one-slug' })).status).toBe(201);
    const before = (await call(server, 'GET', '/cms/news?limit=1')).body.total as number;
    const taken = await call(server, 'POST', '/cms/news', { ...body('Two'), slug: 'one-slug' });
    expect(taken.status).toBe(409);
    expect((await call(server, 'GET', '/cms/news?limit=1')).body.total).toBe(before);
  });

  /**
   * Holds `lock` (SQL taking a lock) in another session, runs `request` (which waits on it), moves the
   * registry's version meanwhile as another server's content-type change would, and lets go.
   */
  async function typesChangedDuring<T>(lock: string, request: () => Promise<T>): Promise<T> {
    const other = new pg.Client(poolConfig(database().target));
    await other.connect();
    try {
      await other.query('begin');
      await other.query(lock);
      const answer = request();
      for (let i = 0; i < 250 && (await sessionsWaitingOnLocks(other)) === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await other.query('update quire_registry_version set version = version + 1');
      await other.query('commit');
      return await answer;
    } finally {
      await other.end();
    }
  }

  it('runs a create again on the reloaded types when they changed while it ran', async () => {
    const before = (await call(server, 'GET', '/cms/news?limit=1')).body.total as number;
    let created: Awaited<ReturnType<typeof call>> | undefined;
    const sent = await sentBy(async () => {
      created = await typesChangedDuring(
        "select pg_advisory_xact_lock(hashtextextended('slugs:news:slug:harbour-race', 0))",
        () => call(server, 'POST', '/cms/news', body('Harbour race')),
      );
    });
    expect(created?.status).toBe(201);
    // Once refused by the check (nothing kept), once more on the types read again.
    expect(sent.statements.filter((text) => text.startsWith('select "quire_registry_is"'))).toHaveLength(2);
    expect((await call(server, 'GET', '/cms/news?limit=1')).body.total).toBe(before + 1);
  });

  it('answers 409, keeping nothing, where a write that is not run again meets types that changed while it ran', async () => {
    const id = (await call(server, 'POST', '/cms/news', body('Quay race'))).body.id as string;
    expect((await call(server, 'PATCH', `/cms/news/${id}`, { status: 'published' })).status).toBe(200);
    const first = (await call(server, 'GET', `/cms/news/${id}/revisions`)).body.revisions.at(-1).id as number;
    // A revision's restore takes its type as it is when asked, and runs once.
    const restored = await typesChangedDuring(`select id from news where id = '${id}' for update`, () =>
      call(server, 'POST', `/cms/news/${id}/revisions/${first}/restore`),
    );
    expect(restored.status).toBe(409);
    expect(restored.body.error.code).toBe('conflict');
    expect(restored.body.error.message).toMatch(/changed while this write ran; nothing was saved/);
    expect((await call(server, 'GET', `/cms/news/${id}`)).body.rows[0].status).toBe('published');
  });

  it('creates of one title probe the slugs after the last they took in one statement, read again once a row goes', async () => {
    const title = 'Kestrel count';
    const slugOf = async (on: PostgresTestServer) => {
      const created = await call(on, 'POST', '/cms/news', body(title));
      expect(created.status).toBe(201);
      return { id: created.body.id as string, slug: created.body.rows[0].slug as string };
    };
    const heads = (statements: string[]) => statements.map((text) => text.trim().split(/\s+/).slice(0, 3).join(' '));
    const made = [await slugOf(server), await slugOf(server)];
    expect(made.map((row) => row.slug)).toEqual(['kestrel-count', 'kestrel-count-2']);

    // The third: the candidates after what the second took, probed in one statement with the gap
    // token; no slug read.
    let third = { id: '', slug: '' };
    const probed = await sentBy(async () => {
      third = await slugOf(server);
    });
    expect(third.slug).toBe('kestrel-count-3');
    expect(heads(probed.statements)).toContain('select (select min(c.i)');
    expect(heads(probed.statements)).not.toContain('select "slug" as');

    // Another server deletes the second row and renames the third: the next creates fill those gaps.
    const other = await startPostgresTestServer(database().target, quiet);
    try {
      expect((await call(other, 'DELETE', `/cms/news/${made[1].id}`)).status).toBe(200);
      let refilled = { id: '', slug: '' };
      const reread = await sentBy(async () => {
        refilled = await slugOf(server);
      });
      expect(refilled.slug).toBe('kestrel-count-2');
      expect(heads(reread.statements)).toContain('select g.token, s.value');
      expect((await call(other, 'PUT', `/cms/news/${third.id}`, { slug: 'kestrel-renamed' })).status).toBe(200);
      expect((await slugOf(server)).slug).toBe('kestrel-count-3');
      expect((await slugOf(server)).slug).toBe('kestrel-count-4');

      // Both servers creating the title at once: every slug taken once, the run without a gap.
      const together = await Promise.all(Array.from({ length: 12 }, (_, i) => slugOf(i % 2 ? other : server)));
      const slugs = together
        .map((row) => row.slug)
        .sort((x, y) => Number(x.split('-').pop()) - Number(y.split('-').pop()));
      expect(slugs).toEqual(Array.from({ length: 12 }, (_, i) => `kestrel-count-${i + 5}`));
    } finally {
      await other.close();
    }
  });
});
