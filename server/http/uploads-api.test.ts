import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isMediaPath } from '../../common/media-rules.js';
import { readQuireConfig } from '../config/quire-config.js';
import { POSTGRES_INCOMING_DIR } from '../db/postgres/postgres-media-store.js';
import { DEFAULT_UPLOAD_LIMIT } from '../media/media-store.js';
import { avifHeaderSample, gifImage, jpegImage, pngImage, webpImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

type Server = TestServer & { errors: unknown[] };

/** Every file in a folder (none if it is missing), relative to it. */
function filesIn(root: string): string[] {
  try {
    return readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => !entry.isDirectory())
      .map((entry) => relative(root, join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

/**
 * Every stored upload and every one being received, as paths under the media folder: on SQLite
 * the files there (`.incoming` included), on PostgreSQL the rows of quire_media and the files in
 * this process's incoming folder (the test servers run in this process).
 */
async function mediaFiles(server: Server): Promise<string[]> {
  if (server.engine === 'sqlite') return filesIn(join(server.dir, 'media')).sort();
  const rows = await sql<{ path: string }>`select path from quire_media`.execute(server.database.db);
  const incoming = filesIn(POSTGRES_INCOMING_DIR).map((name) => `.incoming/${name}`);
  return [...rows.rows.map((row) => row.path), ...incoming].sort();
}

/** The bytes stored for a media path: the file on SQLite, the row on PostgreSQL. */
async function storedBytes(server: Server, path: string): Promise<Buffer> {
  if (server.engine === 'sqlite') return readFileSync(join(server.dir, path));
  const relativePath = path.slice('/media/'.length);
  const rows = await sql<{ bytes: Buffer }>`select bytes from quire_media where path = ${relativePath}`.execute(
    server.database.db,
  );
  return rows.rows[0].bytes;
}

/**
 * Posts a FormData to /api/uploads and parses the answer. Each upload is kept as a file of its own
 * (`duplicate`): these tests upload the same sample bytes again and again.
 */
async function upload(server: Server, form: FormData, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.api}/uploads?duplicate=true`, { method: 'POST', body: form, headers });
  return { response, body: (await response.json()) as any };
}

/** A form with one part named `file`. */
function fileForm(bytes: Uint8Array, fileName: string, type = 'application/octet-stream', field = 'file'): FormData {
  const form = new FormData();
  form.append(field, new Blob([bytes], { type }), fileName);
  return form;
}

/** A raw request whose target Node sends as is (fetch would normalize `..` away). */
function rawGet(
  server: Server,
  path: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, path, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Polls until `check` holds; for effects that follow a closed connection, which has no answer to await. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100 && !(await check()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  expect(await check()).toBe(true);
}

function expectError(body: any, status: number, code: string, detail?: object) {
  expect(body).toEqual({ error: { status, code, message: expect.any(String), ...(detail ? { detail } : {}) } });
}

const SAMPLES = [
  { name: 'PNG', bytes: pngImage(), type: 'image/png', extension: 'png', size: { width: 3, height: 2 } },
  { name: 'JPEG', bytes: jpegImage(), type: 'image/jpeg', extension: 'jpg', size: { width: 3, height: 2 } },
  { name: 'GIF', bytes: gifImage(), type: 'image/gif', extension: 'gif', size: { width: 3, height: 2 } },
  { name: 'WebP', bytes: webpImage(), type: 'image/webp', extension: 'webp', size: { width: 3, height: 2 } },
  { name: 'AVIF (header sample)', bytes: avifHeaderSample(), type: 'image/avif', extension: 'avif', size: {} },
];

describe('POST /api/uploads', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it.each(SAMPLES)('stores a $name under a generated name and serves it back byte for byte', async (sample) => {
    const { response, body } = await upload(server, fileForm(sample.bytes, `holiday.${sample.extension}`));
    expect(response.status).toBe(201);
    // The media library's asset of the upload (see media-assets-api.test.ts), its path first of all.
    expect(body).toMatchObject({
      path: expect.any(String),
      type: sample.type,
      size: sample.bytes.length,
      ...sample.size,
    });
    const now = new Date();
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
    expect(body.path).toMatch(new RegExp(`^/media/${month}/[0-9a-f-]{36}\\.${sample.extension}$`));
    expect(isMediaPath(body.path)).toBe(true);
    // Stored (beside the database, or in it), already under its final name.
    expect(await storedBytes(server, body.path)).toEqual(sample.bytes);

    const served = await fetch(`${server.origin}${body.path}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(sample.bytes);
    expect(served.headers.get('content-type')).toBe(sample.type);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('content-security-policy')).toBe("default-src 'none'; img-src 'self'; sandbox");
    // A replaced file keeps its path: revalidated by its content hash, immutable only with ?v= (media-variants-api.test.ts).
    expect(served.headers.get('cache-control')).toBe('no-cache');
    expect(served.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('ignores the client file name and Content-Type: the content decides, the server names', async () => {
    const before = await mediaFiles(server);
    const { response, body } = await upload(server, fileForm(pngImage(), '../../../evil.html', 'text/html'));
    expect(response.status).toBe(201);
    expect(body.type).toBe('image/png');
    expect(body.path).not.toContain('evil');
    expect(body.path).toMatch(/\.png$/);
    const added = (await mediaFiles(server)).filter((file) => !before.includes(file));
    expect(added).toEqual([body.path.slice('/media/'.length)]);
    if (server.engine === 'sqlite') {
      expect(readdirSync(server.dir).filter((name) => !name.startsWith('content.sqlite'))).toEqual(['media']);
    }
  });

  it('gives parallel uploads distinct paths', async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => upload(server, fileForm(gifImage(), 'a.gif'))));
    expect(results.map(({ response }) => response.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(results.map(({ body }) => body.path)).size).toBe(5);
  });

  it.each([
    ['a text file named .png and sent as image/png', Buffer.from('just some text, honestly'), 'notes.png', 'image/png'],
    [
      'an HTML page renamed .png',
      Buffer.from('<!doctype html><script>fetch("/api/cms/news")</script>'),
      'photo.png',
      'image/png',
    ],
    ['a PDF', Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n'), 'scan.jpg', 'image/jpeg'],
  ])('refuses %s with 415 and keeps nothing', async (_name, bytes, fileName, type) => {
    const before = await mediaFiles(server);
    const { response, body } = await upload(server, fileForm(bytes, fileName, type));
    expect(response.status).toBe(415);
    expectError(body, 415, 'unsupported_media_type');
    expect(body.error.message).toMatch(/PNG, JPEG, GIF, WebP, AVIF and SVG/);
    expect(await mediaFiles(server)).toEqual(before);
  });

  it.each([
    [
      'no file part (only a text field)',
      () => {
        const form = new FormData();
        form.append('title', 'hello');
        return form;
      },
    ],
    ['no part at all', () => new FormData()],
    ['the file under another field name', () => fileForm(pngImage(), 'a.png', 'image/png', 'image')],
    [
      'two files',
      () => {
        const form = fileForm(pngImage(), 'a.png', 'image/png');
        form.append('file', new Blob([gifImage()], { type: 'image/gif' }), 'b.gif');
        return form;
      },
    ],
    [
      'a file and a text field',
      () => {
        const form = fileForm(pngImage(), 'a.png', 'image/png');
        form.append('alt', 'a photo');
        return form;
      },
    ],
    ['an empty file', () => fileForm(new Uint8Array(0), 'empty.png', 'image/png')],
  ])('refuses %s with 400 and keeps nothing', async (_name, makeForm) => {
    const before = await mediaFiles(server);
    const { response, body } = await upload(server, makeForm());
    expect(response.status).toBe(400);
    expectError(body, 400, 'bad_request');
    expect(await mediaFiles(server)).toEqual(before);
  });

  it.each([
    [
      'a multipart body without a closing boundary',
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n',
    ],
    ['a multipart Content-Type without a boundary', 'multipart/form-data', '--XyZ--\r\n'],
    ['malformed part headers', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nno colon here\r\n\r\nx\r\n--XyZ--\r\n'],
  ])('refuses %s with 400', async (_name, contentType, text) => {
    const before = await mediaFiles(server);
    const response = await fetch(`${server.api}/uploads`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: text,
    });
    expect(response.status).toBe(400);
    expectError(await response.json(), 400, 'bad_request');
    expect(await mediaFiles(server)).toEqual(before);
  });

  it.each([
    ['a JSON body', 'application/json', '{"file":"iVBORw0KGgo="}'],
    ['a form-encoded body', 'application/x-www-form-urlencoded', 'file=x'],
    ['a raw image body', 'image/png', 'x'],
  ])('refuses %s with 415: uploads are multipart/form-data', async (_name, contentType, text) => {
    const response = await fetch(`${server.api}/uploads`, {
      method: 'POST',
      headers: { 'content-type': contentType },
      body: text,
    });
    expect(response.status).toBe(415);
    expectError(await response.json(), 415, 'unsupported_media_type');
  });

  it('refuses a file one byte over the default 10 MiB limit with 413 and keeps nothing', async () => {
    const before = await mediaFiles(server);
    const tooBig = Buffer.concat([pngImage(), Buffer.alloc(DEFAULT_UPLOAD_LIMIT + 1 - pngImage().length)]);
    const { response, body } = await upload(server, fileForm(tooBig, 'big.png', 'image/png'));
    expect(response.status).toBe(413);
    // The limit is data, so no client has to read it out of the sentence.
    expectError(body, 413, 'payload_too_large', { code: 'too_large', limit: DEFAULT_UPLOAD_LIMIT });
    expect(body.error.message).toContain(String(DEFAULT_UPLOAD_LIMIT));
    expect(await mediaFiles(server)).toEqual(before);
  });

  it('answers other methods with 405 and an Allow header', async () => {
    const response = await fetch(`${server.api}/uploads`);
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('removes the partial file when the client hangs up mid-upload', async () => {
    const before = await mediaFiles(server);
    const head = [
      '--XyZ',
      'Content-Disposition: form-data; name="file"; filename="a.png"',
      'Content-Type: image/png',
      '',
      '',
    ].join('\r\n');
    const partial = Buffer.concat([Buffer.from(head), pngImage(), Buffer.alloc(64 * 1024)]);
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/uploads HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n` +
        `Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${partial.length + 100_000}\r\n\r\n`,
    );
    await new Promise<void>((resolve) => socket.write(partial, () => resolve()));
    // The sniffed PNG is being written to a temporary file now; then the client goes away.
    await eventually(async () => (await mediaFiles(server)).length > before.length);
    socket.destroy();
    await eventually(async () => (await mediaFiles(server)).length === before.length);
    expect(await mediaFiles(server)).toEqual(before);
    expect(server.errors).toEqual([]);
  });
});

describe('POST /api/uploads with --upload-limit', () => {
  let server: Server;
  const limit = 4096;
  beforeAll(async () => {
    server = await startTestServer({ uploadLimit: limit });
  });
  afterAll(async () => {
    await server.dispose();
  });

  const padded = (size: number) => Buffer.concat([pngImage(), Buffer.alloc(size - pngImage().length, 0x20)]);

  it('accepts a file of exactly the limit', async () => {
    const { response, body } = await upload(server, fileForm(padded(limit), 'a.png'));
    expect(response.status).toBe(201);
    expect(body.size).toBe(limit);
  });

  it('refuses a file one byte over the limit with 413 and keeps nothing', async () => {
    const before = await mediaFiles(server);
    const { response, body } = await upload(server, fileForm(padded(limit + 1), 'a.png'));
    expect(response.status).toBe(413);
    expectError(body, 413, 'payload_too_large', { code: 'too_large', limit });
    expect(await mediaFiles(server)).toEqual(before);
  });

  it('refuses a body declared far over the limit before reading it', async () => {
    const before = await mediaFiles(server);
    const { response, body } = await upload(server, fileForm(padded(2 * 1024 * 1024), 'a.png'));
    expect(response.status).toBe(413);
    expectError(body, 413, 'payload_too_large', { code: 'too_large', limit });
    expect(await mediaFiles(server)).toEqual(before);
  });
});

describe('GET /media/...', () => {
  let server: Server;
  let stored: string;
  beforeAll(async () => {
    server = await startTestServer();
    stored = (await upload(server, fileForm(pngImage(), 'a.png'))).body.path;
    // Bait: files that must never be served.
    const media = join(server.dir, 'media');
    mkdirSync(join(media, '.incoming'), { recursive: true });
    writeFileSync(join(media, '.incoming', 'secret.part'), 'partial upload');
    const outside = join(server.dir, '019a4c7e-5b2d-7c3e-9f10-2a3b4c5d6e7f.png');
    writeFileSync(outside, 'outside the media folder');
    mkdirSync(join(media, '2026', '01'), { recursive: true });
    symlinkSync(outside, join(media, '2026', '01', '019a4c7e-5b2d-7c3e-9f10-2a3b4c5d6e7f.png'));
    // A whole month folder that leads out: the same name through it is the outside file.
    symlinkSync(server.dir, join(media, '2026', '02'));
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('serves a stored file', async () => {
    const { status, body } = await rawGet(server, stored);
    expect(status).toBe(200);
    expect(body).toEqual(pngImage());
  });

  it.each([
    ['a parent segment to the database', '/media/../content.sqlite'],
    ['parent segments after a real folder', 'STORED/../../../../content.sqlite'],
    ['an encoded parent segment', '/media/%2e%2e/content.sqlite'],
    ['an encoded parent segment with an encoded slash', '/media/..%2fcontent.sqlite'],
    ['encoded slashes', '/media/2026%2f..%2f..%2fcontent.sqlite'],
    ['an upper-case encoded traversal', '/media/%2E%2E%2Fcontent.sqlite'],
    ['a backslash traversal', '/media/..%5ccontent.sqlite'],
    ['an absolute path', '/media//etc/passwd'],
    ['an encoded absolute path', '/media/%2fetc%2fpasswd'],
  ])('refuses %s as a target not in normal form (400), with nothing of the file', async (_name, target) => {
    const path = target.replace('STORED', stored.replace(/\.png$/, ''));
    const { status, headers, body } = await rawGet(server, path);
    expect(status).toBe(400);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expectError(JSON.parse(body.toString('utf8')), 400, 'bad_request', { code: 'target_not_normal' });
    expect(body.toString('latin1')).not.toMatch(/SQLite format|outside the media|partial upload|root:/);
  });

  it.each([
    ['a temporary upload (dotfile folder)', '/media/.incoming/secret.part'],
    ['a folder', '/media/2026/'],
    ['the media folder itself', '/media/'],
    ['the media prefix without a slash', '/media'],
    ['a symlinked file pointing outside', '/media/2026/01/019a4c7e-5b2d-7c3e-9f10-2a3b4c5d6e7f.png'],
    ['a file through a symlinked folder', '/media/2026/02/019a4c7e-5b2d-7c3e-9f10-2a3b4c5d6e7f.png'],
    ['a generated-looking name that does not exist', '/media/2026/01/019a4c7e-5b2d-7c3e-9f10-000000000000.png'],
    ['a stored file with another extension', 'STORED.gif'],
    ['a stored file with a trailing slash', 'STORED/'],
  ])('answers %s with a JSON 404 and nothing of the file', async (_name, target) => {
    // STORED: the stored file's path without its extension (known only once the upload ran).
    const path = target.replace('STORED', stored.replace(/\.png$/, ''));
    const { status, headers, body } = await rawGet(server, path);
    expect(status).toBe(404);
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expectError(JSON.parse(body.toString('utf8')), 404, 'not_found');
    expect(body.toString('latin1')).not.toMatch(/SQLite format|outside the media|partial upload|root:/);
  });

  it('refuses writes to media paths', async () => {
    const response = await fetch(`${server.origin}${stored}`, { method: 'DELETE' });
    expect(response.status).toBe(405);
    expect((await rawGet(server, stored)).status).toBe(200);
  });
});

describe('uploads behind the localhost guards', () => {
  let server: Server;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it.each([
    ['a foreign Origin', { origin: 'http://evil.example' }],
    ['a null Origin (sandboxed frame)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
  ])('refuses an upload with %s (403) and keeps nothing', async (_name, headers) => {
    const { response, body } = await upload(server, fileForm(pngImage(), 'a.png'), headers);
    expect(response.status).toBe(403);
    expectError(body, 403, 'forbidden');
    expect(await mediaFiles(server)).toEqual([]);
  });

  it('accepts an upload from its own editor origin', async () => {
    const { response } = await upload(server, fileForm(pngImage(), 'a.png'), { origin: server.origin });
    expect(response.status).toBe(201);
  });

  it('refuses a foreign page reading media', async () => {
    const { body } = await upload(server, fileForm(pngImage(), 'a.png'));
    const response = await fetch(`${server.origin}${body.path}`, { headers: { origin: 'http://evil.example' } });
    expect(response.status).toBe(403);
  });
});

describe('uploads with an API token', () => {
  let server: Server;
  const token = 'upload-test-token-0123456789';
  beforeAll(async () => {
    server = await startTestServer({ token });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('refuses an upload without the token (401) and keeps nothing', async () => {
    const { response, body } = await upload(server, fileForm(pngImage(), 'a.png'));
    expect(response.status).toBe(401);
    expectError(body, 401, 'unauthorized');
    expect(await mediaFiles(server)).toEqual([]);
  });

  it('accepts it with the token; the file is then served like the editor, without one (for <img>)', async () => {
    const { response, body } = await upload(server, fileForm(pngImage(), 'a.png'), {
      authorization: `Bearer ${token}`,
    });
    expect(response.status).toBe(201);
    expect((await fetch(`${server.origin}${body.path}`)).status).toBe(200);
  });
});

describe('--upload-limit', () => {
  it('defaults to 10 MiB and reads a byte count', () => {
    expect(readQuireConfig([], {}).uploadLimit).toBe(10 * 1024 * 1024);
    expect(readQuireConfig(['--upload-limit', '2048'], {}).uploadLimit).toBe(2048);
  });

  it.each([['abc'], ['1.5'], ['100'], ['0']])('refuses %j with a one-line explanation', (value) => {
    expect(() => readQuireConfig(['--upload-limit', value], {})).toThrow(/--upload-limit must be/);
  });
});
