import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledRow, ScheduleResponse } from '../../common/publishing-contract.js';
import type { ScheduleService } from '../schedule/schedule-service.js';
import { request } from '../test-support/api-scenario.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { newsBody } from '../test-support/seed.js';
import { makeTeam } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer, testEngine } from '../test-support/test-server.js';

/**
 * Scheduled publishing over real HTTP, with a clock the test moves: a row's pending
 * change is shown on its reads, made at its exact time as a normal write in the scheduler's name,
 * made once by a server that was stopped across the time, and once by two servers sharing one
 * PostgreSQL database.
 */

/** The scheduler's clock, moved by the tests. */
let clock = new Date('2026-11-30T12:00:00.000Z');
const scheduler = { now: () => clock, pollMs: 0 };

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ scheduler });
});
afterAll(async () => {
  await server?.dispose();
});

async function ok(method: string, url: string, json?: unknown, on: TestServer = server) {
  const { response, body, text } = await request(on, method, url, json === undefined ? {} : { json });
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

const schedulesOf = (on: TestServer) => on.services.schedules as ScheduleService;

/** Row writes recorded for a row, counted past the API (revisions, when the server keeps them). */
async function updatesOf(on: TestServer, id: string): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from quire_revisions where row_id = ${id} and action = 'update'`.execute(on.database.db);
  return Number(rows[0].n);
}

async function draft(title: string, on: TestServer = server): Promise<string> {
  const created = await ok('POST', '/cms/news', newsBody({ title, status: 'draft' }), on);
  return created.id as string;
}

describe('scheduling a row', () => {
  it('refuses a bad schedule with the reason, and changes nothing', async () => {
    const id = await draft('Refusals');
    const cases: [unknown, number, string][] = [
      [{ at: '2026-12-01 07:00:00' }, 400, 'status'],
      [{ status: 'published' }, 400, 'at'],
      [{ status: 'published', at: 'tomorrow' }, 400, 'at'],
      [{ status: 'live', at: '2026-12-01 07:00:00' }, 400, 'status'],
      [{ status: 'published', at: '2026-02-30 07:00:00' }, 400, 'at'],
      [{ status: 'published', at: '2026-12-01 07:00:00', when: 'soon' }, 400, 'when'],
    ];
    for (const [body, status, field] of cases) {
      const { response, body: answer } = await request(server, 'POST', `/cms/news/${id}/schedule`, { json: body });
      expect(response.status, JSON.stringify(body)).toBe(status);
      expect(answer.error.code).toBe('validation_failed');
      expect(Object.keys(answer.error.problems)).toContain(field);
    }
    const missing = await request(server, 'POST', '/cms/news/no-such-row/schedule', {
      json: { status: 'published', at: '2026-12-01 07:00:00' },
    });
    expect(missing.response.status).toBe(404);
    // Categories have no status column.
    const category = await ok('POST', '/cms/categories', { title: 'Sport' });
    const noStatus = await request(server, 'POST', `/cms/categories/${category.id}/schedule`, {
      json: { status: 'published', at: '2026-12-01 07:00:00' },
    });
    expect(noStatus.response.status).toBe(400);
    const row = (await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow;
    expect(row.schedule).toBeNull();
  });

  it('shows the pending change on the row and in the list, replaced by a new one, gone once cancelled', async () => {
    const id = await draft('Shown');
    const set: ScheduleResponse = await ok('POST', `/cms/news/${id}/schedule`, {
      status: 'published',
      at: '2026-12-01T07:00:00Z',
    });
    expect(set).toEqual({ id, schedule: { status: 'published', at: '2026-12-01 07:00:00', by: 'tester' } });
    const row = (await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow;
    expect(row.schedule).toEqual({ status: 'published', at: '2026-12-01 07:00:00', by: 'tester' });
    const list = (await ok('GET', '/cms/news?limit=100')).rows as ScheduledRow[];
    expect(list.find((candidate) => candidate.id === id)?.schedule?.at).toBe('2026-12-01 07:00:00');
    expect(list.filter((candidate) => candidate.id !== id).every((candidate) => 'schedule' in candidate)).toBe(true);

    await ok('POST', `/cms/news/${id}/schedule`, { status: 'archived', at: '2026-12-02 08:30' });
    expect((await ok('GET', `/cms/news/${id}/schedule`)).schedule).toMatchObject({
      status: 'archived',
      at: '2026-12-02 08:30:00',
    });
    // A write body that echoes the row's schedule back is not refused for it.
    await ok('PUT', `/cms/news/${id}`, { ...row, title: 'Shown again' });

    expect(await ok('DELETE', `/cms/news/${id}/schedule`)).toEqual({ id, schedule: null });
    expect(((await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow).schedule).toBeNull();
    expect((await request(server, 'DELETE', `/cms/news/${id}/schedule`)).response.status).toBe(404);
  });

  it('makes the change at its exact time, as a write in the name of who scheduled it', async () => {
    const id = await draft('On time');
    clock = new Date('2026-11-30T12:00:00.000Z');
    await ok('POST', `/cms/news/${id}/schedule`, { status: 'published', at: '2026-11-30 13:00:00' });
    // Someone else edits the row meanwhile; the scheduled change is still made in the scheduler's name.
    await sql`update news set updated_by = 'someone else' where id = ${id}`.execute(server.database.db);

    clock = new Date('2026-11-30T12:59:59.999Z');
    expect(await schedulesOf(server).runDue()).toBe(0);
    let row = (await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow;
    expect(row.status).toBe('draft');
    expect(row.schedule?.status).toBe('published');

    clock = new Date('2026-11-30T13:00:00.000Z');
    expect(await schedulesOf(server).runDue()).toBe(1);
    row = (await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow;
    expect(row.status).toBe('published');
    expect(row.updated_by).toBe('tester');
    expect(row.schedule).toBeNull();
    // The list read (and its cache) sees the change too.
    const listed = ((await ok('GET', `/cms/news?filter=status=published&limit=100`)).rows as ScheduledRow[]).map(
      (candidate) => candidate.id,
    );
    expect(listed).toContain(id);
    expect(await updatesOf(server, id)).toBe(1);
    // Nothing more happens later.
    clock = new Date('2026-11-30T14:00:00.000Z');
    expect(await schedulesOf(server).runDue()).toBe(0);
    expect(await updatesOf(server, id)).toBe(1);
  });

  it('forgets a deleted row’s pending change, also once the row is back from the trash', async () => {
    const id = await draft('Deleted before');
    clock = new Date('2026-11-30T12:00:00.000Z');
    await ok('POST', `/cms/news/${id}/schedule`, { status: 'published', at: '2026-11-30 12:30:00' });
    await ok('DELETE', `/cms/news/${id}`);
    const { rows } = await sql`select * from quire_schedules where row_id = ${id}`.execute(server.database.db);
    expect(rows).toEqual([]);
    if (server.services.revisions) await ok('POST', `/cms/news/trash/${id}/restore`);
    clock = new Date('2026-11-30T12:30:00.000Z');
    expect(await schedulesOf(server).runDue()).toBe(0);
    if (server.services.revisions) {
      const row = (await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow;
      expect(row).toMatchObject({ status: 'draft', schedule: null });
    }
  });
});

describe('a disabled account’s schedules', () => {
  it('are held while it is disabled, shown so, and made once it is enabled again', async () => {
    const teamServer = await startTestServer({ scheduler });
    try {
      const team = await makeTeam(teamServer);
      const as = async (who: string, method: string, url: string, json?: unknown) => {
        const { response, body, text } = await request(teamServer, method, url, { headers: team[who], json });
        expect(response.status, `${who} ${method} ${url}: ${text}`).toBeLessThan(300);
        return body;
      };
      const read = async (id: string) => (await as('admin', 'GET', `/cms/news/${id}`)).rows[0] as ScheduledRow;
      clock = new Date('2026-11-30T12:00:00.000Z');
      const ednas = (await as('editor', 'POST', '/cms/news', newsBody({ title: 'By edna', status: 'draft' }))).id;
      const adas = (await as('admin', 'POST', '/cms/news', newsBody({ title: 'By ada', status: 'draft' }))).id;
      const at = { status: 'published', at: '2026-11-30 13:00:00' };
      await as('editor', 'POST', `/cms/news/${ednas}/schedule`, at);
      await as('admin', 'POST', `/cms/news/${adas}/schedule`, at);

      await as('admin', 'PATCH', '/accounts/edna', { disabled: true });
      const held = { status: 'published', at: '2026-11-30 13:00:00', by: 'edna', held: 'account_disabled' };
      expect((await read(ednas)).schedule).toEqual(held);
      const answer = await as('admin', 'GET', `/cms/news/${ednas}/schedule`);
      expect(answer).toMatchObject({ schedule: held });
      const document = await as('admin', 'GET', '/openapi.json');
      expect(new ResponseChecker(document).problems('GET', `/cms/news/${ednas}/schedule`, 200, answer)).toEqual([]);
      const listed = (await as('admin', 'GET', '/cms/news?limit=1000')).rows as ScheduledRow[];
      expect(listed.find((row) => row.id === ednas)?.schedule).toEqual(held);
      expect(listed.find((row) => row.id === adas)?.schedule).not.toHaveProperty('held');

      // Due: ada's change is made; edna's is held, not made and not dropped.
      clock = new Date('2026-11-30T13:00:00.000Z');
      expect(await schedulesOf(teamServer).runDue()).toBe(1);
      expect(await read(adas)).toMatchObject({ status: 'published', updated_by: 'ada', schedule: null });
      expect(await read(ednas)).toMatchObject({ status: 'draft', schedule: held });
      clock = new Date('2026-12-01T13:00:00.000Z');
      expect(await schedulesOf(teamServer).runDue()).toBe(0);
      expect(await updatesOf(teamServer, ednas)).toBe(0);

      // Enabled again: the change, past its time, is made at the next look, in edna's name.
      await as('admin', 'PATCH', '/accounts/edna', { disabled: false });
      expect((await read(ednas)).schedule).toEqual({ status: 'published', at: '2026-11-30 13:00:00', by: 'edna' });
      expect(await schedulesOf(teamServer).runDue()).toBe(1);
      expect(await read(ednas)).toMatchObject({ status: 'published', updated_by: 'edna', schedule: null });
    } finally {
      await teamServer.dispose();
    }
  });
});

describe('deleting a content type', () => {
  it('forgets its rows’ pending changes: a type made later with its table starts with none', async () => {
    const columns = [
      { name: 'title', label: 'Title', type: 'text', required: true },
      {
        name: 'status',
        label: 'Status',
        type: 'select',
        required: true,
        options: [
          { id: 'draft', text: 'Draft' },
          { id: 'published', text: 'Published' },
        ],
      },
    ];
    await ok('POST', '/cms-content', { title: 'Notices', columns });
    const id = (await ok('POST', '/cms/notices', { title: 'Soon', status: 'draft' })).id as string;
    clock = new Date('2026-11-30T12:00:00.000Z');
    await ok('POST', `/cms/notices/${id}/schedule`, { status: 'published', at: '2026-11-30 13:00:00' });
    await ok('DELETE', '/cms-content/notices?force=true');
    const { rows } = await sql`select * from quire_schedules where table_name = 'notices'`.execute(server.database.db);
    expect(rows).toEqual([]);
    await ok('POST', '/cms-content', { title: 'Notices', columns });
    await ok('POST', `/cms/notices/${id}`, { title: 'Again', status: 'draft' });
    expect(((await ok('GET', `/cms/notices/${id}`)).rows[0] as ScheduledRow).schedule).toBeNull();
    clock = new Date('2026-11-30T13:00:00.000Z');
    expect(await schedulesOf(server).runDue()).toBe(0);
    expect((await ok('GET', `/cms/notices/${id}`)).rows[0]).toMatchObject({ status: 'draft' });
  });
});

// Another process writing the SQLite file (a tool) is seen through its commit; PostgreSQL always asks.
describe.skipIf(testEngine() !== 'sqlite')('a schedule another process wrote', () => {
  it('shows on the rows read next, though this server knew of no schedule of the type', async () => {
    const id = await draft('Written elsewhere');
    // Reads learn that no categories and no other news rows are scheduled.
    expect(((await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow).schedule).toBeNull();
    const other = new Database(server.dbFile);
    try {
      other
        .prepare(
          'insert into quire_schedules (table_name, row_id, status, at, scheduled_by, created_at) values (?, ?, ?, ?, ?, ?)',
        )
        .run('news', id, 'archived', '2031-01-01 00:00:00', 'a tool', '2026-11-30 12:00:00.000000');
    } finally {
      other.close();
    }
    expect(((await ok('GET', `/cms/news/${id}`)).rows[0] as ScheduledRow).schedule).toEqual({
      status: 'archived',
      at: '2031-01-01 00:00:00',
      by: 'a tool',
    });
    await ok('DELETE', `/cms/news/${id}/schedule`);
  });
});

describe('a server stopped across the due time', () => {
  it('makes the change on its next start, once', async () => {
    clock = new Date('2026-11-30T12:00:00.000Z');
    const first = await startTestServer({ scheduler });
    let id = '';
    let second: TestServer | undefined;
    let third: TestServer | undefined;
    try {
      id = await draft('Across a restart', first);
      await ok('POST', `/cms/news/${id}/schedule`, { status: 'published', at: '2026-11-30 18:00:00' }, first);
      await first.stop();

      clock = new Date('2026-12-01T09:00:00.000Z');
      second = await startTestServer({ ...reopenOptions(first), scheduler });
      const row = (await ok('GET', `/cms/news/${id}`, undefined, second)).rows[0] as ScheduledRow;
      expect(row.status).toBe('published');
      expect(row.schedule).toBeNull();
      await second.stop();

      third = await startTestServer({ ...reopenOptions(first), scheduler });
      expect(await schedulesOf(third).runDue()).toBe(0);
      expect(await updatesOf(third, id)).toBe(1);
    } finally {
      await third?.stop();
      await second?.stop();
      await first.dispose();
    }
  });
});

// Several servers share only a PostgreSQL database (a SQLite file has one server).
describe.skipIf(testEngine() !== 'postgres')('two servers on one PostgreSQL database', () => {
  it('make each due change once between them', async () => {
    clock = new Date('2026-11-30T12:00:00.000Z');
    const other = await startTestServer({ ...reopenOptions(server), scheduler });
    try {
      const ids: string[] = [];
      for (let index = 0; index < 24; index++) {
        const id = await draft(`Shared ${index}`, index % 2 === 0 ? server : other);
        ids.push(id);
        await ok(
          'POST',
          `/cms/news/${id}/schedule`,
          { status: 'published', at: '2026-11-30 15:00:00' },
          index % 2 ? server : other,
        );
      }
      clock = new Date('2026-11-30T15:00:00.000Z');
      const [a, b] = await Promise.all([schedulesOf(server).runDue(), schedulesOf(other).runDue()]);
      expect(a + b).toBe(ids.length);
      for (const id of ids) {
        expect(await updatesOf(server, id), id).toBe(1);
        const row = (await ok('GET', `/cms/news/${id}`, undefined, other)).rows[0] as ScheduledRow;
        expect(row.status).toBe('published');
        expect(row.schedule).toBeNull();
      }
    } finally {
      await other.stop();
    }
  });
});
