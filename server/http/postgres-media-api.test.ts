// Engine: PostgreSQL only: uploads kept in a PostgreSQL database of its own, served by two servers sharing it.

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRUNE_GRACE_MS } from '../media/media-prune.js';
import { postgresForTests, skipNote, useTestDatabase } from '../test-support/postgres.js';
import { type PostgresTestServer, startPostgresTestServer } from '../test-support/postgres-server.js';
import { gifImage, jpegImage, pngImage } from '../test-support/sample-images.js';
import { MEDIA_HEADERS } from './media-routes.js';

/**
 * Uploads on a team server: the bytes live in the PostgreSQL database, so any server
 * sharing it serves any upload, with the headers a file from the media folder gets.
 */

const postgres = await postgresForTests();

async function upload(server: PostgresTestServer, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'picture.bin');
  // A file of its own each time: the tests upload the same sample bytes again.
  const response = await fetch(`${server.api}/uploads?duplicate=true`, { method: 'POST', body: form });
  return { status: response.status, body: (await response.json()) as any };
}

describe.skipIf(!postgres.available)(`uploads on two servers sharing one database${skipNote(postgres)}`, () => {
  const database = useTestDatabase(postgres.url);
  let a: PostgresTestServer;
  let b: PostgresTestServer;

  beforeAll(async () => {
    a = await startPostgresTestServer(database().target);
    b = await startPostgresTestServer(database().target);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('serve each other’s uploads, byte for byte, with the sandboxing headers', async () => {
    const fromA = await upload(a, pngImage());
    const fromB = await upload(b, jpegImage());
    expect(fromA).toMatchObject({
      status: 201,
      body: { path: expect.any(String), type: 'image/png', size: pngImage().length, width: 3, height: 2 },
    });
    expect(fromB.status).toBe(201);
    for (const [server, path, bytes, type] of [
      [b, fromA.body.path, pngImage(), 'image/png'],
      [a, fromB.body.path, jpegImage(), 'image/jpeg'],
    ] as const) {
      const response = await fetch(`${server.origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      for (const [name, value] of Object.entries(MEDIA_HEADERS)) expect(response.headers.get(name)).toBe(value);
      expect(Buffer.from(await response.arrayBuffer())).toEqual(Buffer.from(bytes));
    }
    const head = await fetch(`${b.origin}${fromA.body.path}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(pngImage().length));
    expect([a.errors, b.errors]).toEqual([[], []]);
  });

  it('answer 404 for paths never issued, 400 for traversal and writes with 405, on either server', async () => {
    const stored = (await upload(a, gifImage())).body.path as string;
    const missing = stored.replace(/[0-9a-f]{4}\.gif$/, '0000.gif');
    for (const path of [missing, '/media/.incoming/x.part', '/media/2026/01/']) {
      const response = await fetch(`${b.origin}${path}`);
      expect(response.status, path).toBe(404);
    }
    // Encoded separators are not in normal form: refused before any route looks at the path.
    expect((await fetch(`${b.origin}/media/..%2f..%2fetc/passwd`)).status).toBe(400);
    const put = await fetch(`${b.origin}${stored}`, { method: 'PUT', body: 'x' });
    expect(put.status).toBe(405);
  });

  it('keep nothing of a refused upload: not an image (415), empty (400)', async () => {
    const count = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from quire_media`.execute(a.database.db)).rows[0].n);
    const before = await count();
    expect((await upload(a, new TextEncoder().encode('<svg onload="alert(1)"/>'))).status).toBe(415);
    expect((await upload(b, new Uint8Array())).status).toBe(400);
    expect(await count()).toBe(before);
  });

  it('count unused uploads across servers: a row saved through one keeps a file uploaded through the other', async () => {
    const used = (await upload(a, pngImage())).body.path as string;
    const unused = (await upload(a, pngImage())).body.path as string;
    const created = await fetch(`${b.api}/cms/news`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: `See ${used}`, status: 'published', published_at: '2026-01-01 10:00:00' }),
    });
    expect(created.status).toBe(201);
    // Age every upload past the grace period, as an hour would.
    await sql`update quire_media set created_at = created_at - ${`${PRUNE_GRACE_MS + 1000} milliseconds`}::interval`.execute(
      a.database.db,
    );
    const stored = await sql<{ path: string; size: number }>`select path, size from quire_media`.execute(a.database.db);
    const unusedRows = stored.rows.filter((row) => `/media/${row.path}` !== used);
    expect(unusedRows.map((row) => `/media/${row.path}`)).toContain(unused);
    const response = await fetch(`${b.api}/media/unused`);
    expect(await response.json()).toEqual({
      count: unusedRows.length,
      bytes: unusedRows.reduce((sum, row) => sum + row.size, 0),
    });
  });
});
