import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { exportCommand } from './export-command.js';

let server: TestServer;
let out: string;

async function runExport(args: string[]): Promise<number> {
  const database = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  return exportCommand([...database, '--out', out, ...args], { out: new PassThrough(), err: new PassThrough() });
}

async function uploadPng(width: number): Promise<{ id: string; path: string; hash: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pngImage(width, 2))], { type: 'image/png' }), 'quay.png');
  return (await (await fetch(`${server.api}/uploads`, { method: 'POST', body: form })).json()) as {
    id: string;
    path: string;
    hash: string;
  };
}

beforeAll(async () => {
  server = await startTestServer();
  out = mkdtempSync(join(tmpdir(), 'quire-export-library-'));
});
afterAll(async () => {
  await server.dispose();
  rmSync(out, { recursive: true, force: true });
});

describe('quire export and the media library', () => {
  it('writes rows with their images’ layout, and --since follows a described or replaced upload', async () => {
    const asset = await uploadPng(31);
    await request(server, 'PATCH', `/media/${asset.id}`, { json: { alt: 'The quay', focal: { x: 0.2, y: 0.4 } } });
    const created = await request(server, 'POST', '/cms/articles', {
      json: { title: 'Quay', status: 'published', published_at: '2026-01-02 09:00:00', image: asset.path },
    });
    expect(created.response.status, created.text).toBe(201);
    expect(await runExport([])).toBe(0);
    // A generated id is its own file name.
    const rowFile = () => JSON.parse(readFileSync(join(out, 'articles', `${created.body.id}.json`), 'utf8'));
    expect(rowFile().media).toEqual({
      [asset.path]: { alt: 'The quay', width: 31, height: 2, focal: { x: 0.2, y: 0.4 }, hash: asset.hash },
    });

    await request(server, 'PATCH', `/media/${asset.id}`, { json: { alt: 'The quay at noon' } });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(pngImage(33, 3))], { type: 'image/png' }), 'quay2.png');
    const replaced = await fetch(`${server.api}/media/${asset.id}/file`, { method: 'PUT', body: form });
    expect(replaced.status).toBe(200);
    const { hash } = (await replaced.json()) as { hash: string };
    expect(await runExport(['--since'])).toBe(0);
    expect(rowFile().media[asset.path]).toEqual({
      alt: 'The quay at noon',
      width: 33,
      height: 3,
      focal: { x: 0.2, y: 0.4 },
      hash,
    });
    expect(readFileSync(join(out, asset.path))).toEqual(pngImage(33, 3));
  });
});
