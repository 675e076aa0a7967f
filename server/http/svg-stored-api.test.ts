import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { svgLeftovers } from '../test-support/svg-payloads.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * SVGs that reach the media store other than by upload (files put there beside the database, which
 * the library adopts when the server starts) are cleaned as uploads are before they become assets;
 * what cleaning changed or refused is kept aside where the store can keep it, and said in a log
 * line. Runs on SQLite and, in `server-pg`, PostgreSQL.
 */

const BEACON = 'http://beacon.invalid:8';
const HOSTILE = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg"><script>fetch('${BEACON}/x')</script><rect width="40" height="20" onload="fetch('${BEACON}/y')"/></svg>`,
);
const BROKEN = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>');

let server: TestServer;
const lines: string[] = [];
/** Paths (after `/media/`) of the files put in the store without an upload. */
const placed: Record<'hostile' | 'broken' | 'clean', string> = { hostile: '', broken: '', clean: '' };
let cleanBytes: Buffer;

/** Keeps `bytes` in the server's store as a file with no asset, as a copy into the media folder leaves it. */
async function placeWithoutUpload(bytes: Buffer): Promise<string> {
  const store = server.database.media()?.store;
  if (!store) throw new Error('The test server keeps no media');
  const pending = await store.receive(Readable.from([bytes]), 1024 * 1024);
  const { path } = await pending.commit();
  return path.replace('/media/', '');
}

async function assetAt(relative: string) {
  const response = await fetch(`${server.api}/media/by-path?path=${encodeURIComponent(`/media/${relative}`)}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  const first = await startTestServer();
  server = first;
  // A drawing as an upload leaves it (already clean), to place again without one.
  const form = new FormData();
  form.append(
    'file',
    new Blob([Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle r="4"/></svg>')]),
    'dot.svg',
  );
  const uploaded = (await (await fetch(`${first.api}/uploads`, { method: 'POST', body: form })).json()) as {
    path: string;
  };
  cleanBytes = Buffer.from(await (await fetch(`${first.origin}${uploaded.path}`)).arrayBuffer());
  placed.hostile = await placeWithoutUpload(HOSTILE);
  placed.broken = await placeWithoutUpload(BROKEN);
  placed.clean = await placeWithoutUpload(cleanBytes);
  await first.stop();
  const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => {
    lines.push(line);
  });
  try {
    server = await startTestServer(reopenOptions(first));
  } finally {
    warn.mockRestore();
  }
  // Two servers start, one after the other, on a machine that may be busy.
}, 120_000);

afterAll(async () => {
  await server?.dispose();
});

describe('SVGs in the store that did not come through an upload', () => {
  it('cleans one that carries script before it becomes an asset, and says so', async () => {
    const { status, body } = await assetAt(placed.hostile);
    expect(status).toBe(200);
    const served = await fetch(`${server.origin}/media/${placed.hostile}`);
    const text = await served.text();
    expect(svgLeftovers(text, BEACON)).toEqual([]);
    expect(text).toContain('<rect width="40" height="20"/>');
    // The asset describes the bytes served, sized as a browser sizes a drawing without a size.
    expect(body).toMatchObject({ type: 'image/svg+xml', size: Buffer.byteLength(text), width: 300, height: 150 });
    const line = lines.find((said) => said.includes(placed.hostile));
    expect(line).toContain('it was cleaned as uploads are');
    // Where the store keeps files aside, the file as it was is there, byte for byte.
    const kept = /kept in (\S+)$/.exec(line ?? '')?.[1];
    // A media folder keeps it aside; PostgreSQL's table keeps no copy (its source still has the file).
    expect(kept).toBe(server.engine === 'sqlite' ? `media/.set-aside/${placed.hostile}` : undefined);
    if (kept) expect(readFileSync(join(server.dir, kept))).toEqual(HOSTILE);
  });

  it('refuses one cleaning cannot read: no asset, not served, said in a line', async () => {
    expect((await assetAt(placed.broken)).status).toBe(404);
    expect((await fetch(`${server.origin}/media/${placed.broken}`)).status).toBe(404);
    const line = lines.find((said) => said.includes(placed.broken));
    expect(line).toContain('cannot be cleaned (The SVG is not well-formed XML');
    const kept = /kept in (\S+?);/.exec(line ?? '')?.[1];
    expect(kept).toBe(server.engine === 'sqlite' ? `media/.set-aside/${placed.broken}` : undefined);
    if (kept) expect(readFileSync(join(server.dir, kept))).toEqual(BROKEN);
  });

  it('adopts one that is already clean as it is, setting nothing aside', async () => {
    const { status, body } = await assetAt(placed.clean);
    expect(status).toBe(200);
    expect(body).toMatchObject({ size: cleanBytes.length, width: 8, height: 8 });
    const served = Buffer.from(await (await fetch(`${server.origin}/media/${placed.clean}`)).arrayBuffer());
    expect(served).toEqual(cleanBytes);
    expect(lines.some((said) => said.includes(placed.clean))).toBe(false);
    expect(existsSync(join(server.dir, 'media', '.set-aside', ...placed.clean.split('/')))).toBe(false);
  });
});
