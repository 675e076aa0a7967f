import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import type { ImageManifest, ImageVariantSettings } from './export-image-variants.js';
import { type OpenSite, openSite } from './open-site.js';
import { type ExportSummary, exportSite } from './site-export.js';

/**
 * `exportSite` called on its own, as a program or a build step would call it (not through `quire
 * export`): the image variants and manifests its options ask for are written by it, and a run
 * continuing (`since`) makes only those of new images. Runs on SQLite and, in `server-pg`, PostgreSQL.
 */

let server: TestServer;
let site: OpenSite;
let out: string;
const SETTINGS: ImageVariantSettings = { widths: [100, 200], formats: ['webp', 'png'] };

async function png(width: number, height: number, red: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: red, g: 90, b: 140 } } })
    .png()
    .toBuffer();
}

/** Uploads an image and publishes an article showing it; its path. */
async function publishImage(bytes: Buffer, title: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `${title}.png`);
  const uploaded = await fetch(`${server.api}/uploads?duplicate=true`, { method: 'POST', body: form });
  expect(uploaded.status).toBe(201);
  const { path } = (await uploaded.json()) as { path: string };
  const created = await request(server, 'POST', '/cms/articles', {
    json: { title, status: 'published', published_at: '2026-01-02 09:00:00', image: path },
  });
  expect(created.response.status, created.text).toBe(201);
  return path;
}

const fileOf = (path: string) => join(out, ...path.split('/').filter(Boolean));
const manifestOf = (path: string): ImageManifest => JSON.parse(readFileSync(fileOf(`${path}.json`), 'utf8'));
const variantFiles = (path: string) => manifestOf(path).sources.flatMap((source) => source.files);

function run(options: { since?: string; images?: ImageVariantSettings | null }): Promise<ExportSummary> {
  return exportSite(site.services, site.media, out, {
    types: [],
    publishedOnly: false,
    library: site.database.db,
    ...options,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  site = await openSite({ dbFile: server.dbFile, postgres: server.postgresDatabase?.target ?? null });
  out = mkdtempSync(join(tmpdir(), 'quire-export-site-variants-'));
});

afterAll(async () => {
  await site?.close();
  await server?.dispose();
  rmSync(out, { recursive: true, force: true });
});

describe('exportSite with image variants in its options', () => {
  let first: string;

  it('writes the variants and a manifest per image itself', async () => {
    first = await publishImage(await png(400, 200, 10), 'wide');
    const summary = await run({ images: SETTINGS });
    expect(summary.variantsMade).toBe(4);
    expect(manifestOf(first)).toMatchObject({ path: first, width: 400, height: 200, widths: [100, 200] });
    for (const source of manifestOf(first).sources) {
      for (const file of source.files) {
        const decoded = await sharp(readFileSync(fileOf(file.path))).metadata();
        expect([decoded.format, decoded.width, decoded.height]).toEqual([source.format, file.width, file.width / 2]);
      }
    }
    expect(JSON.parse(readFileSync(join(out, 'image-variants.json'), 'utf8'))).toEqual(SETTINGS);
  });

  it('continuing, makes the variants of a new image only, with the settings the export recorded', async () => {
    const times = variantFiles(first).map((file) => statSync(fileOf(file.path)).mtimeMs);
    const unchanged = await run({ since: '' });
    expect(unchanged).toMatchObject({ variantsMade: 0, written: 0, removed: 0 });

    const second = await publishImage(await png(150, 150, 200), 'square');
    const continued = await run({ since: '' });
    // 150 pixels wide: 100 and its own width, in two formats.
    expect(continued.variantsMade).toBe(4);
    expect(manifestOf(second).widths).toEqual([100, 150]);
    expect(variantFiles(first).map((file) => statSync(fileOf(file.path)).mtimeMs)).toEqual(times);
  });

  it('removes every variant and manifest when a full export asks for none', async () => {
    const files = variantFiles(first);
    const summary = await run({});
    expect(summary.variantsMade).toBe(0);
    expect(existsSync(fileOf(`${first}.json`))).toBe(false);
    for (const file of files) expect(existsSync(fileOf(file.path)), file.path).toBe(false);
    expect(existsSync(join(out, 'image-variants.json'))).toBe(false);
    expect(existsSync(fileOf(first))).toBe(true);
  });
});
