import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledRow } from '../../common/publishing-contract.js';
import type { ScheduleService } from '../schedule/schedule-service.js';
import { request } from '../test-support/api-scenario.js';
import { newsBody } from '../test-support/seed.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Who may schedule and who may configure hooks: hooks are admins' only (their addresses
 * and logs too), a schedule is a change of the row (authors: their own rows; viewers: none), and
 * a scheduled change is written in the name of the person who scheduled it.
 */

let clock = new Date('2026-11-30T12:00:00.000Z');
let server: TestServer;
let team: Credentials;

beforeAll(async () => {
  server = await startTestServer({ scheduler: { now: () => clock, pollMs: 0 }, hooks: { pollMs: 0 } });
  team = await makeTeam(server);
});
afterAll(async () => {
  await server?.dispose();
});

async function as(who: string, method: string, path: string, json?: unknown) {
  return request(server, method, path, { headers: team[who], ...(json === undefined ? {} : { json }) });
}

describe('build hooks', () => {
  it('are for admins only, reading included', async () => {
    const created = await as('admin', 'POST', '/hooks', { url: 'http://127.0.0.1:9/hook' });
    expect(created.response.status, created.text).toBe(201);
    for (const who of ['editor', 'author', 'viewer', 'news_token', 'viewer_token', 'none']) {
      for (const [method, path] of [
        ['GET', '/hooks'],
        ['POST', '/hooks'],
        ['GET', `/hooks/${created.body.id}`],
        ['PATCH', `/hooks/${created.body.id}`],
        ['DELETE', `/hooks/${created.body.id}`],
        ['GET', `/hooks/${created.body.id}/deliveries`],
        ['POST', `/hooks/${created.body.id}/test`],
      ]) {
        const { response } = await as(who, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
        expect(response.status, `${who} ${method} ${path}`).toBe(who === 'none' ? 401 : 403);
      }
    }
    expect((await as('admin_token', 'GET', '/hooks')).body.hooks).toHaveLength(1);
  });
});

describe('scheduling', () => {
  it('is a change of the row: authors their own rows, viewers none; made in the scheduler’s name', async () => {
    const mine = await as('author', 'POST', '/cms/news', newsBody({ title: 'Aldo’s story', status: 'draft' }));
    expect(mine.response.status, mine.text).toBe(201);
    const theirs = await as('editor', 'POST', '/cms/news', newsBody({ title: 'Edna’s story', status: 'draft' }));
    const at = { status: 'published', at: '2026-11-30 18:00:00' };

    expect((await as('viewer', 'POST', `/cms/news/${mine.body.id}/schedule`, at)).response.status).toBe(403);
    expect((await as('author', 'POST', `/cms/news/${theirs.body.id}/schedule`, at)).response.status).toBe(403);
    const scheduled = await as('author', 'POST', `/cms/news/${mine.body.id}/schedule`, at);
    expect(scheduled.response.status, scheduled.text).toBe(200);
    expect(scheduled.body.schedule.by).toBe('aldo');
    // Anyone who may read the row sees its pending change.
    const seen = await as('viewer', 'GET', `/cms/news/${mine.body.id}`);
    expect((seen.body.rows[0] as ScheduledRow).schedule).toMatchObject({ status: 'published', by: 'aldo' });
    expect((await as('viewer', 'DELETE', `/cms/news/${mine.body.id}/schedule`)).response.status).toBe(403);

    clock = new Date('2026-11-30T18:00:00.000Z');
    expect(await (server.services.schedules as ScheduleService).runDue()).toBe(1);
    const after = (await as('viewer', 'GET', `/cms/news/${mine.body.id}`)).body.rows[0] as ScheduledRow;
    expect(after).toMatchObject({ status: 'published', updated_by: 'aldo', schedule: null });
  });
});
