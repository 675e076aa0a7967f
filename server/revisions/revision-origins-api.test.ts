import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevisionListResponse, RevisionSummary } from '../../common/revision-contract.js';
import { importRows } from '../import/row-import.js';
import type { ScheduleService } from '../schedule/schedule-service.js';
import { request } from '../test-support/api-scenario.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A revision says why it was written: a person's edit, a scheduled change firing (in the name of
 * who scheduled it), a restore of a revision or of the trash (with when the version it put back
 * was written), or an import. The history reads it, and the OpenAPI document describes it.
 */

/** The scheduler's clock, moved by the tests. */
let clock = new Date('2026-11-30T12:00:00.000Z');

let server: TestServer;
let checker: ResponseChecker;

beforeAll(async () => {
  server = await startTestServer({ scheduler: { now: () => clock, pollMs: 0 } });
  checker = new ResponseChecker(await ok('GET', '/openapi.json'));
});
afterAll(async () => {
  await server?.dispose();
});

async function ok(method: string, url: string, json?: unknown) {
  const { response, body, text } = await request(server, method, url, json === undefined ? {} : { json });
  expect(response.status, `${method} ${url}: ${text}`).toBeLessThan(300);
  return body;
}

/** A row's revisions, newest first, checked against the OpenAPI document. */
async function history(id: string): Promise<RevisionSummary[]> {
  const url = `/cms/news/${id}/revisions`;
  const { response, body } = await request(server, 'GET', url);
  expect(checker.problems('GET', url, response.status, body)).toEqual([]);
  return (body as RevisionListResponse).revisions;
}

describe('revision origins', () => {
  it('a person’s create and change are edits', async () => {
    const id = (await ok('POST', '/cms/news', newsBody({ title: 'Edited' }))).id as string;
    await ok('PUT', `/cms/news/${id}`, { title: 'Edited again' });
    const [change, create] = await history(id);
    expect(change).toMatchObject({ action: 'update', origin: 'edit', restored_from: null });
    expect(create).toMatchObject({ action: 'create', origin: 'edit', restored_from: null });
  });

  it('a scheduled change that fires is a schedule, by who scheduled it', async () => {
    const id = (await ok('POST', '/cms/news', newsBody({ title: 'Scheduled' }))).id as string;
    await ok('POST', `/cms/news/${id}/schedule`, { status: 'published', at: '2026-11-30 13:00:00' });
    clock = new Date('2026-11-30T13:00:00.000Z');
    expect(await (server.services.schedules as ScheduleService).runDue()).toBe(1);
    const [fired] = await history(id);
    expect(fired).toMatchObject({ action: 'update', origin: 'schedule', by: 'tester', fields: ['status'] });
  });

  it('a restore of a revision names when the version it put back was written', async () => {
    const id = (await ok('POST', '/cms/news', newsBody({ title: 'First words' }))).id as string;
    await ok('PUT', `/cms/news/${id}`, { title: 'Second words' });
    const [, first] = await history(id);
    const restored = (await ok('POST', `/cms/news/${id}/revisions/${first.id}/restore`)).revision as RevisionSummary;
    expect(restored).toMatchObject({ action: 'restore', origin: 'restore', restored_from: first.at });
    expect((await history(id))[0]).toEqual(restored);
  });

  it('a restore from the trash names when the row was deleted', async () => {
    const id = (await ok('POST', '/cms/news', newsBody({ title: 'Binned' }))).id as string;
    await ok('DELETE', `/cms/news/${id}`);
    const [deleted] = await history(id);
    await ok('POST', `/cms/news/trash/${id}/restore`);
    const [back] = await history(id);
    expect(back).toMatchObject({ action: 'restore', origin: 'restore', restored_from: deleted.at });
  });

  it('rows an import brought in are created by the import', async () => {
    const news = server.services.registry.requireByTable('news');
    const records = ['Imported one', 'Imported two'].map((title, i) => ({
      line: i + 1,
      fields: { id: `imported-${i}`, title, status: 'draft', published_at: '2025-01-01 00:00:00' },
    }));
    const result = await importRows(server.database, server.services.registry, news, records, { editorName: 'ada' });
    expect(result).toMatchObject({ imported: 2, refused: 0 });
    for (const record of records) {
      const revisions = await history(String(record.fields.id));
      expect(revisions).toHaveLength(1);
      expect(revisions[0]).toMatchObject({ action: 'create', origin: 'import', by: 'ada', restored_from: null });
      expect(revisions[0].fields).toContain('title');
    }
  });

  it('an import that refuses a row records no revision', async () => {
    const news = server.services.registry.requireByTable('news');
    const records = [
      { line: 1, fields: { id: 'refused-import-0', title: 'Fine', status: 'draft' } },
      { line: 2, fields: { id: 'refused-import-1', title: 'Bad', status: 'no-such-status' } },
    ];
    const result = await importRows(server.database, server.services.registry, news, records, { editorName: 'ada' });
    expect(result.imported).toBe(0);
    expect((await request(server, 'GET', '/cms/news/refused-import-0/revisions')).response.status).toBe(404);
  });
});
