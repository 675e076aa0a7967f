// Engine: PostgreSQL only: `quire media prune --database` on uploads kept in a PostgreSQL database of its own.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangePage } from '../changes/change-feed.js';
import { openPostgresDatabase } from '../db/database.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { jpegImage, pngImage } from '../test-support/sample-images.js';
import { buildSite, upload } from '../test-support/site-fixture.js';
import { PRUNE_GRACE_MS } from './media-prune.js';
import { mediaCommand } from './media-prune-command.js';

/**
 * `quire media prune --database URL`: the uploads kept in `quire_media` that no row
 * names and that are older than the grace hour are listed, then deleted with --yes, as in a media
 * folder; used and young uploads stay.
 */

const postgres = await postgresForTests();

async function runCommand(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (lines: string[]) => ({ write: (text: string) => lines.push(...text.trimEnd().split('\n')) });
  const code = await mediaCommand(args, { out: stream(out), err: stream(err) } as never);
  return { code, out, err };
}

describe.skipIf(!postgres.available)(`quire media prune on PostgreSQL${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let server: PostgresTestServer;
  let used: string[];
  let unused: string;
  let fresh: string;

  beforeAll(async () => {
    server = await startPostgresTestServer(database().target);
    used = await buildSite(server.origin);
    unused = await upload(server.origin, jpegImage(), 'unused.jpg');
    fresh = await upload(server.origin, pngImage(), 'fresh.png');
    // Every upload but the fresh one looks uploaded two hours ago, past the grace period.
    const pg = await openPostgresDatabase(database().target);
    try {
      const past = new Date(Date.now() - 2 * PRUNE_GRACE_MS);
      await sql`update quire_media set created_at = ${past} where path <> ${fresh.replace('/media/', '')}`.execute(
        pg.db,
      );
    } finally {
      await pg.close();
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  async function unusedCount() {
    const response = await fetch(`${server.api}/media/unused`);
    expect(response.status).toBe(200);
    return (await response.json()) as { count: number; bytes: number };
  }

  it('lists the one unused upload, as the API counts it, and deletes nothing without --yes', async () => {
    const dryRun = await runCommand(['prune', '--database', database().url]);
    expect(dryRun.err).toEqual([]);
    expect(dryRun.code).toBe(0);
    expect(dryRun.out).toEqual([
      `unused ${unused.slice(1)} (${jpegImage().length} bytes)`,
      expect.stringMatching(
        /^Would delete 1 unused media file \(\d+ bytes\) of 4; run quire media prune --yes to delete them\.$/,
      ),
    ]);
    expect(await unusedCount()).toEqual({ count: 1, bytes: jpegImage().length });
    expect((await fetch(`${server.origin}${unused}`)).status).toBe(200);
  });

  it('deletes it with --yes; used and young uploads stay, and a second run finds nothing', async () => {
    const pruned = await runCommand(['prune', '--database', database().url, '--yes']);
    expect(pruned.code).toBe(0);
    expect(pruned.out).toEqual([
      `deleted ${unused.slice(1)} (${jpegImage().length} bytes)`,
      expect.stringMatching(
        /^Deleted 1 unused media file \(\d+ bytes\) of 4; files used by a row or uploaded in the last hour were kept\.$/,
      ),
    ]);
    expect((await fetch(`${server.origin}${unused}`)).status).toBe(404);
    for (const path of [...used, fresh]) expect((await fetch(`${server.origin}${path}`)).status).toBe(200);
    expect(await unusedCount()).toEqual({ count: 0, bytes: 0 });
    const again = await runCommand(['prune', '--database', database().url, '--yes']);
    expect(again.out).toEqual([
      'No unused media: each of the 3 stored files is used by a row or was uploaded in the last hour.',
    ]);
    // The change feed has each upload, then the one deletion, by the command line.
    const response = await fetch(`${server.api}/changes?types=media&limit=1000`);
    const { changes } = (await response.json()) as ChangePage;
    expect(changes.map((change) => `${change.action} ${change.id}`)).toEqual([
      ...[...used, unused, fresh].map((path) => `media ${path}`),
      `delete ${unused}`,
    ]);
    expect(changes[changes.length - 1]).toMatchObject({ type: 'media', by: null });
  });
});
