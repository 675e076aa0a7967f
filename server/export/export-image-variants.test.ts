import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { exportCommand } from './export-command.js';
import type { ImageManifest } from './export-image-variants.js';

let server: TestServer;
let out: string;

/** Runs `quire export` into `out`; its exit code, what it printed and what it said went wrong. */
async function runExport(args: string[]): Promise<{ code: number; said: string; error: string }> {
  const database = server.postgresDatabase ? ['--database', server.postgresDatabase.url] : ['--db', server.dbFile];
  const said = new PassThrough();
  const error = new PassThrough();
  let saidText = '';
  let errorText = '';
  said.on('data', (chunk) => {
    saidText += chunk;
  });
  error.on('data', (chunk) => {
    errorText += chunk;
  });
  const code = await exportCommand([...database, '--out', out, ...args], { out: said, err: error });
  return { code, said: saidText, error: errorText };
}

/** A JPEG photo-like image (a gradient, so encoders have something to keep) of the given size. */
async function jpeg(width: number, height: number, tint: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = tint;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

async function upload(bytes: Buffer, name: string): Promise<{ id: string; path: string; hash: string }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const response = await fetch(`${server.api}/uploads?duplicate=true`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; path: string; hash: string };
}

const manifestOf = (path: string): ImageManifest =>
  JSON.parse(readFileSync(join(out, `${path.slice(1)}.json`), 'utf8'));
const fileOf = (path: string) => join(out, ...path.split('/').filter(Boolean));
/** Each variant file of an image's manifest, with when it was last written. */
const variantTimes = (path: string) =>
  manifestOf(path).sources.flatMap((source) =>
    source.files.map((file) => [file.path, statSync(fileOf(file.path)).mtimeMs]),
  );
const widths = ['--image-widths', '480,960,1920', '--image-formats', 'avif,webp'];

beforeAll(async () => {
  server = await startTestServer();
  out = mkdtempSync(join(tmpdir(), 'quire-export-variants-'));
});
afterAll(async () => {
  await server.dispose();
  rmSync(out, { recursive: true, force: true });
});

describe('quire export --image-widths --image-formats', () => {
  let wide: { id: string; path: string; hash: string };
  let narrow: { id: string; path: string; hash: string };

  it('writes the variants asked, never wider than the original, and a manifest per image', async () => {
    wide = await upload(await jpeg(1200, 800, 40), 'harbour.jpg');
    narrow = await upload(await jpeg(600, 300, 90), 'boat.jpg');
    await request(server, 'PATCH', `/media/${wide.id}`, { json: { alt: 'The harbour', focal: { x: 0.3, y: 0.6 } } });
    for (const [title, image] of [
      ['Harbour', wide.path],
      ['Boat', narrow.path],
    ]) {
      const created = await request(server, 'POST', '/cms/articles', {
        json: { title, status: 'published', published_at: '2026-01-02 09:00:00', image },
      });
      expect(created.response.status, created.text).toBe(201);
    }

    const run = await runExport(widths);
    expect(run.error).toBe('');
    expect(run.code).toBe(0);
    const manifest = manifestOf(wide.path);
    expect(manifest).toMatchObject({
      path: wide.path,
      type: 'image/jpeg',
      width: 1200,
      height: 800,
      alt: 'The harbour',
      focal: { x: 0.3, y: 0.6 },
      hash: wide.hash,
      widths: [480, 960, 1200],
    });
    expect(manifest.sources.map((source) => [source.format, source.type])).toEqual([
      ['avif', 'image/avif'],
      ['webp', 'image/webp'],
    ]);
    for (const source of manifest.sources) {
      expect(source.srcset).toBe(source.files.map((file) => `${file.path} ${file.width}w`).join(', '));
      expect(source.files.map((file) => [file.width, file.height])).toEqual([
        [480, 320],
        [960, 640],
        [1200, 800],
      ]);
      for (const file of source.files) {
        // The bytes are what the manifest says: decoded, not trusted from the name.
        const decoded = await sharp(readFileSync(fileOf(file.path))).metadata();
        expect([decoded.format, decoded.width, decoded.height]).toEqual([
          source.format === 'avif' ? 'heif' : 'webp',
          file.width,
          file.height,
        ]);
        expect(file.path).toContain(wide.hash.slice(0, 12));
      }
    }
    // The original is copied as before, beside its variants.
    expect(readFileSync(fileOf(wide.path)).length).toBeGreaterThan(0);
    const small = manifestOf(narrow.path);
    expect(small.widths).toEqual([480, 600]);
    expect(small.sources[1].srcset).toMatch(/-480w-[0-9a-f]{12}\.webp 480w, .*-600w-[0-9a-f]{12}\.webp 600w$/);
    expect(small.alt).toBe('');
  });

  it('writes no variant on a second run, and a new description only into the manifest', async () => {
    const times = variantTimes(wide.path);
    const again = await runExport(widths);
    expect(again.code).toBe(0);
    expect(again.said).toMatch(/: 0 files written, \d+ unchanged, 0 removed/);

    await request(server, 'PATCH', `/media/${wide.id}`, { json: { alt: 'The harbour at dawn' } });
    expect((await runExport(widths)).code).toBe(0);
    expect(manifestOf(wide.path).alt).toBe('The harbour at dawn');
    expect(variantTimes(wide.path)).toEqual(times);
  });

  it('makes a replaced file’s variants again and removes the old ones', async () => {
    const old = manifestOf(wide.path).sources.flatMap((source) => source.files.map((file) => file.path));
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await jpeg(1000, 1000, 200))], { type: 'image/jpeg' }), 'sq.jpg');
    const replaced = await fetch(`${server.api}/media/${wide.id}/file`, { method: 'PUT', body: form });
    expect(replaced.status).toBe(200);
    const { hash } = (await replaced.json()) as { hash: string };

    const run = await runExport(widths);
    expect(run.code).toBe(0);
    const manifest = manifestOf(wide.path);
    expect(manifest).toMatchObject({ hash, width: 1000, height: 1000, widths: [480, 960, 1000] });
    expect(run.said).toMatch(/: \d+ files written, \d+ unchanged, \d+ removed/);
    for (const path of old) expect(existsSync(fileOf(path)), path).toBe(false);
    for (const file of manifest.sources[0].files) {
      const decoded = await sharp(readFileSync(fileOf(file.path))).metadata();
      expect([decoded.width, decoded.height]).toEqual([file.width, file.width]);
    }
  });

  it('continues with --since using the settings the export recorded', async () => {
    const run = await runExport(['--since']);
    expect(run.error).toBe('');
    expect(run.code).toBe(0);
    expect(run.said).toMatch(/: 0 files written, \d+ unchanged, 0 removed/);
    expect(manifestOf(narrow.path).widths).toEqual([480, 600]);
  });

  it('removes the variants and manifest of an image no longer used', async () => {
    const small = manifestOf(narrow.path);
    const list = await request(server, 'GET', '/cms/articles?limit=1000');
    const boat = list.body.rows.find((row: { image: string | null }) => row.image === narrow.path);
    expect(
      (await request(server, 'PATCH', `/cms/articles/${boat.id}`, { json: { image: null } })).response.status,
    ).toBe(200);
    const run = await runExport(widths);
    expect(run.code).toBe(0);
    expect(existsSync(fileOf(`${narrow.path}.json`))).toBe(false);
    for (const source of small.sources)
      for (const file of source.files) expect(existsSync(fileOf(file.path))).toBe(false);
  });

  it('draws an SVG’s variants as rasters, its manifest naming it an SVG', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#2a6"/></svg>';
    const form = new FormData();
    form.append('file', new Blob([svg], { type: 'image/svg+xml' }), 'mark.svg');
    const uploaded = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const { path } = (await uploaded.json()) as { path: string };
    const created = await request(server, 'POST', '/cms/articles', {
      json: { title: 'Mark', status: 'published', published_at: '2026-01-02 09:00:00', image: path },
    });
    expect(created.response.status, created.text).toBe(201);
    expect((await runExport(widths)).code).toBe(0);
    const manifest = manifestOf(path);
    expect(manifest).toMatchObject({ type: 'image/svg+xml', width: 64, height: 32, widths: [64] });
    const file = manifest.sources[1].files[0];
    const decoded = await sharp(readFileSync(fileOf(file.path))).metadata();
    expect([decoded.format, decoded.width, decoded.height]).toEqual(['webp', 64, 32]);
  });

  it('removes every variant and manifest when an export runs without --image-widths', async () => {
    const files = manifestOf(wide.path).sources.flatMap((source) => source.files.map((file) => file.path));
    expect(existsSync(join(out, 'image-variants.json'))).toBe(true);
    const run = await runExport([]);
    expect(run.code).toBe(0);
    expect(existsSync(join(out, 'image-variants.json'))).toBe(false);
    expect(existsSync(fileOf(`${wide.path}.json`))).toBe(false);
    for (const path of files) expect(existsSync(fileOf(path)), path).toBe(false);
    // The originals stay: they are the export's own.
    expect(existsSync(fileOf(wide.path))).toBe(true);
  });

  it('refuses flags it cannot use, in one line', async () => {
    for (const [args, message] of [
      [['--image-widths', '480,abc'], '--image-widths must list whole numbers from 1 to 4096'],
      [['--image-widths', '480', '--image-formats', 'webp,tiff'], '--image-formats must list formats from avif'],
      [['--image-formats', 'webp'], '--image-formats needs --image-widths'],
      [['--since', '--image-widths', '480'], '--since continues the export in --out with its own'],
    ] as const) {
      const run = await runExport([...args]);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.error).toContain(message);
      expect(run.error.trim().split('\n')).toHaveLength(1);
    }
  });
});
