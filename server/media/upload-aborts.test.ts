// Engine: SQLite only: it checks the media folder's `.incoming` files and their descriptors; PostgreSQL keeps media in
// quire_media, where uploads-api.test.ts runs and postgres-media-api.test.ts checks two servers on one database.

import { readdirSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** Files in the media folder's `.incoming` folder (uploads being received). */
function incomingFiles(server: TestServer): string[] {
  try {
    return readdirSync(join(server.dir, 'media', '.incoming'));
  } catch {
    return [];
  }
}

/** This process's open descriptors, as what they point at (the server runs in the test's process). */
function openDescriptors(): string[] {
  const targets: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      targets.push(readlinkSync(`/proc/self/fd/${fd}`));
    } catch {
      // The descriptor readdir itself used, closed by now.
    }
  }
  return targets;
}

const PART_HEAD = [
  '--XyZ',
  'Content-Disposition: form-data; name="file"; filename="a.png"',
  'Content-Type: image/png',
  '',
  '',
].join('\r\n');

/**
 * Sends the first `sent` bytes of an upload that announces more, waits `pauseMs`, then closes the
 * connection: a client that gives up mid-body.
 */
async function abortedUpload(server: TestServer, sent: number, pauseMs: number): Promise<void> {
  const body = Buffer.concat([Buffer.from(PART_HEAD), pngImage(), Buffer.alloc(256 * 1024)]).subarray(0, sent);
  const socket = connect(server.port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
      `Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${300 * 1024}\r\n\r\n`,
  );
  await new Promise<void>((resolve) => socket.write(body, () => resolve()));
  if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  await new Promise<void>((resolve) => {
    socket.once('close', () => resolve());
    socket.destroy();
  });
}

async function within(ms: number, check: () => boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('aborted uploads', () => {
  let server: TestServer & { errors: unknown[] };
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('200 uploads cut off at every stage leave no partial file and no open descriptor, at once', async () => {
    const media = join(server.dir, 'media');
    const descriptorsBefore = openDescriptors().length;
    // Cut before the part headers end, before the format is known, right as the temporary file is
    // being opened (the race that leaked), and while it is being written.
    const cuts = [
      10,
      100,
      PART_HEAD.length + 40,
      PART_HEAD.length + 64,
      PART_HEAD.length + 70,
      1_000,
      5_000,
      70_000,
      200_000,
    ];
    await Promise.all(Array.from({ length: 200 }, (_, i) => abortedUpload(server, cuts[i % cuts.length], i % 3)));
    // Once the server has dropped every aborted connection, nothing of the uploads may remain.
    // Waits up to 10 s (a loaded machine closes 200 sockets slowly); a quiet one is done at once.
    await within(10_000, () => openDescriptors().length <= descriptorsBefore && incomingFiles(server).length === 0);
    expect(incomingFiles(server)).toEqual([]);
    expect(openDescriptors().filter((target) => target.startsWith(media))).toEqual([]);
    expect(openDescriptors().length).toBeLessThanOrEqual(descriptorsBefore);
    expect(server.errors).toEqual([]);
  });

  it('a complete upload after the aborts is still stored', async () => {
    const form = new FormData();
    form.append('file', new Blob([pngImage()]), 'a.png');
    const response = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    expect(incomingFiles(server)).toEqual([]);
  });
});
