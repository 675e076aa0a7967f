// Engine: SQLite only: it ages files in the media folder and prunes with --db; PostgreSQL keeps media in quire_media,
// and `quire media prune --database` is media-prune-postgres.test.ts.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnusedMediaResponse } from '../../common/api-contract.js';
import type { ChangePage } from '../changes/change-feed.js';
import { packageRoot } from '../config/package-root.js';
import { requireSqlite } from '../db/database.js';
import { mediaReferenceSources } from '../db/sqlite/sqlite-media-references.js';
import { request } from '../test-support/api-scenario.js';
import { gifImage, jpegImage, pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { findUnusedMedia, PRUNE_GRACE_MS } from './media-prune.js';
import { mediaCommand } from './media-prune-command.js';
import type { MediaReferenceSource } from './media-references.js';

type Server = TestServer & { errors: unknown[] };

async function upload(server: Server, bytes: Uint8Array): Promise<{ path: string; size: number }> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'image');
  // A file of its own each time: the tests upload the same sample bytes again.
  const response = await fetch(`${server.api}/uploads?duplicate=true`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { path: string; size: number };
}

/** Makes an uploaded file look uploaded two hours ago, past the grace period. */
function age(server: Server, path: string): void {
  const past = new Date(Date.now() - 2 * PRUNE_GRACE_MS);
  utimesSync(join(server.dir, path), past, past);
}

async function runCommand(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const stream = (lines: string[]) => ({ write: (text: string) => lines.push(...text.trimEnd().split('\n')) });
  const code = await mediaCommand(args, { out: stream(out), err: stream(err) } as never);
  return { code, out, err };
}

async function unusedCount(server: Server): Promise<UnusedMediaResponse> {
  const response = await fetch(`${server.api}/media/unused`);
  expect(response.status).toBe(200);
  return (await response.json()) as UnusedMediaResponse;
}

describe('unused uploads: GET /api/media/unused and quire media prune', () => {
  let server: Server;
  const files: Record<string, { path: string; size: number }> = {};
  beforeAll(async () => {
    server = await startTestServer();
    for (const name of ['image', 'markdown', 'tag', 'url', 'meta', 'unused', 'fresh']) {
      files[name] = await upload(server, name === 'unused' ? jpegImage() : name === 'fresh' ? gifImage() : pngImage());
    }
    for (const name of Object.keys(files)) if (name !== 'fresh') age(server, files[name].path);
    // Each kept file is named by a row in a different way: an image column, embedded in Markdown,
    // inside a tags JSON array, as a full URL in a text column, inside the meta JSON.
    const article = await request(server, 'POST', '/cms/articles/kept', {
      json: {
        title: 'Kept',
        status: 'draft',
        published_at: '2026-01-01 10:00:00',
        image: files.image.path,
        body: `Intro\n\n![a photo](${files.markdown.path} "caption")\n`,
        tags: [`see ${files.tag.path}`],
        meta: { description: `cover: ${files.meta.path}` },
      },
    });
    expect(article.response.status, JSON.stringify(article.body)).toBe(201);
    const item = await request(server, 'POST', '/cms/menu_items/gallery', {
      json: { title: 'Gallery', status: 'draft', url: `http://127.0.0.1:4780${files.url.path}?size=large` },
    });
    expect(item.response.status, JSON.stringify(item.body)).toBe(201);
  });
  afterAll(async () => {
    await server.dispose();
  });

  const exists = (name: string) => existsSync(join(server.dir, files[name].path));

  it('counts only the old upload no row names (the fresh one is in its grace hour)', async () => {
    expect(await unusedCount(server)).toEqual({ count: 1, bytes: files.unused.size });
  });

  it('lists it in a dry run by default, one line per file and a summary line, deleting nothing', async () => {
    const { code, out, err } = await runCommand(['prune', '--db', server.dbFile]);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toEqual([
      `unused ${files.unused.path.slice(1)} (${files.unused.size} bytes)`,
      expect.stringMatching(
        /^Would delete 1 unused media file \(\d+ bytes\) of 7; run quire media prune --yes to delete them\.$/,
      ),
    ]);
    expect(Object.keys(files).every(exists)).toBe(true);
  });

  it('keeps a file that another reference source names (row revisions will be one)', async () => {
    const revisions: MediaReferenceSource = {
      async collect(found) {
        found.add(files.unused.path.slice('/media/'.length));
      },
    };
    const root = join(server.dir, 'media');
    expect(
      (await findUnusedMedia(root, mediaReferenceSources(requireSqlite(server.database, 'this check').raw))).files,
    ).toHaveLength(1);
    expect(
      (
        await findUnusedMedia(root, [
          ...mediaReferenceSources(requireSqlite(server.database, 'this check').raw),
          revisions,
        ])
      ).files,
    ).toEqual([]);
  });

  it('deletes it with --yes, while the server runs, and keeps every file a row names and the fresh one', async () => {
    const incoming = join(server.dir, 'media', '.incoming');
    mkdirSync(incoming, { recursive: true });
    writeFileSync(join(incoming, 'upload.part'), 'being received');
    const { code, out } = await runCommand(['prune', '--yes', '--db', server.dbFile]);
    expect(code).toBe(0);
    expect(out[0]).toBe(`deleted ${files.unused.path.slice(1)} (${files.unused.size} bytes)`);
    expect(out[1]).toMatch(
      /^Deleted 1 unused media file \(\d+ bytes\) of 7; files used by a row or uploaded in the last hour were kept\.$/,
    );
    expect(exists('unused')).toBe(false);
    for (const name of ['image', 'markdown', 'tag', 'url', 'meta', 'fresh']) expect(exists(name), name).toBe(true);
    expect(statSync(join(incoming, 'upload.part')).size).toBeGreaterThan(0);
    expect(await unusedCount(server)).toEqual({ count: 0, bytes: 0 });
    expect((await fetch(`${server.origin}${files.image.path}`)).status).toBe(200);
    // The media library lost the deleted file's asset and kept the others.
    const library = await request(server, 'GET', '/media?limit=1000');
    const paths = library.body.assets.map((asset: { path: string }) => asset.path);
    expect(paths).not.toContain(files.unused.path);
    expect(paths).toContain(files.image.path);
    expect(library.body.total).toBe(6);
    // The change feed has each upload, then the one deletion, by the command line.
    const response = await fetch(`${server.api}/changes?types=media&limit=1000`);
    const { changes } = (await response.json()) as ChangePage;
    expect(changes.map((change) => `${change.action} ${change.id}`)).toEqual([
      ...Object.values(files).map((file) => `media ${file.path}`),
      `delete ${files.unused.path}`,
    ]);
    expect(changes[changes.length - 1]).toMatchObject({ type: 'media', by: null });
  });

  it('a row that stops naming a file makes it unused', async () => {
    const cleared = await request(server, 'PUT', '/cms/menu_items/gallery', { json: { url: '' } });
    expect(cleared.response.status, JSON.stringify(cleared.body)).toBe(200);
    expect(await unusedCount(server)).toEqual({ count: 1, bytes: files.url.size });
  });

  it('explains a usage mistake or a missing database in one line', async () => {
    expect(await runCommand(['tidy'])).toMatchObject({
      code: 2,
      err: [expect.stringMatching(/^quire media: the only media command is prune\. Usage: quire media prune/)],
    });
    const missing = join(server.dir, 'missing.sqlite');
    expect(await runCommand(['prune', '--db', missing])).toEqual({
      code: 1,
      out: [],
      err: [`quire media: There is no database file at ${missing}`],
    });
  });

  it('is a quire command: a real CLI process prints the list and exits 0', async () => {
    const root = packageRoot();
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(root, 'server', 'cli.ts'), 'media', 'prune', '--db', server.dbFile],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toEqual([
      `unused ${files.url.path.slice(1)} (${files.url.size} bytes)`,
      expect.stringMatching(/^Would delete 1 unused media file/),
    ]);
  });
});
