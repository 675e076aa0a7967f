// Engine: both in one run: it copies a SQLite test server's site to a PostgreSQL database of its own (skipped, saying
// why, without PostgreSQL) and back.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ScheduledRow } from '../../common/publishing-contract.js';
import { copySite } from '../backup/site-copy-service.js';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { HookRepository } from '../db/repositories/hook-repository.js';
import { ScheduleRepository } from '../db/repositories/schedule-repository.js';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { request } from '../test-support/api-scenario.js';
import { createTestDatabase, postgresForTests, skipNote } from '../test-support/postgres.js';
import { newsBody } from '../test-support/seed.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** Copies and backups carry build hooks and scheduled changes, not the outbox or the delivery log. */

const postgres = await postgresForTests();

/** A SQLite site with a hook (with a waiting event and a failure) and a row with a pending change. */
async function siteWithHookAndSchedule(dir: string): Promise<{ server: TestServer; rowId: string; hookId: string }> {
  const server = await startTestServer({ dbFile: join(dir, 'source.sqlite'), dir, hooks: { pollMs: 0 } });
  const hook = await request(server, 'POST', '/hooks', {
    json: { url: 'http://127.0.0.1:9/build', secret: 'kept-secret', content_types: ['news'], actions: ['update'] },
  });
  expect(hook.response.status, hook.text).toBe(201);
  const row = await request(server, 'POST', '/cms/news', { json: newsBody({ title: 'Copied', status: 'draft' }) });
  await request(server, 'PUT', `/cms/news/${row.body.id}`, { json: { title: 'Copied again' } });
  const scheduled = await request(server, 'POST', `/cms/news/${row.body.id}/schedule`, {
    json: { status: 'published', at: '2030-01-01 07:00:00' },
  });
  expect(scheduled.response.status, scheduled.text).toBe(200);
  return { server, rowId: row.body.id, hookId: hook.body.id };
}

describe('backups carry hooks and schedules', () => {
  it('a SQLite backup restored elsewhere has them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-publishing-backup-'));
    try {
      const { server, rowId, hookId } = await siteWithHookAndSchedule(dir);
      await server.stop();
      const restored = join(dir, 'restored.sqlite');
      await restoreDatabase(await backupFile(join(dir, 'source.sqlite')), restored);
      const again = await openDatabase(restored);
      try {
        expect((await new HookRepository(again.db).find(hookId))?.secret).toBe('kept-secret');
        expect(await new ScheduleRepository(again.db).find('news', rowId)).toMatchObject({ status: 'published' });
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgres.available)(`quire copy carries hooks and schedules${skipNote(postgres)}`, () => {
  it('from SQLite to PostgreSQL and back: the same hooks (and secrets) and pending changes, no outbox', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-publishing-copy-'));
    const pg = await createTestDatabase(postgres.url);
    const { server, rowId, hookId } = await siteWithHookAndSchedule(dir);
    const middle = await openPostgresDatabase(pg.target);
    const back = await openDatabase(join(dir, 'back.sqlite'));
    let onCopy: TestServer | undefined;
    try {
      const source = server.database;
      expect(await new HookRepository(source.db).waitingCount(hookId)).toBe(1);
      await copySite(source, middle, { force: true });
      await copySite(middle, back, { force: true });
      const original = await new HookRepository(source.db).find(hookId);
      for (const copy of [middle, back]) {
        const hooks = new HookRepository(copy.db);
        expect(await hooks.find(hookId)).toEqual({ ...original, failures: 0, retry_at: null });
        expect(await hooks.waitingCount(hookId)).toBe(0);
        expect(await new ScheduleRepository(copy.db).find('news', rowId)).toEqual(
          await new ScheduleRepository(source.db).find('news', rowId),
        );
      }
      await back.close();
      onCopy = await startTestServer({ dbFile: join(dir, 'back.sqlite'), dir, hooks: { pollMs: 0 } });
      const read = await request(onCopy, 'GET', `/cms/news/${rowId}`);
      expect((read.body.rows[0] as ScheduledRow).schedule).toMatchObject({
        status: 'published',
        at: '2030-01-01 07:00:00',
      });
      expect((await request(onCopy, 'GET', '/hooks')).body.hooks).toHaveLength(1);
    } finally {
      await onCopy?.stop();
      await server.stop();
      await middle.close();
      await back.close().catch(() => undefined);
      await pg.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
