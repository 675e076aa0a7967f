import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AssetRepository } from '../db/repositories/asset-repository.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

const SVG = 'xmlns="http://www.w3.org/2000/svg"';
/** A red box from (10, 10) to (60, 40) in the drawing's own units. */
const BOX = '<rect x="10" y="10" width="50" height="30" fill="#f00"/>';

async function upload(server: TestServer, svg: string): Promise<{ id: string; path: string }> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(svg)], { type: 'image/svg+xml' }), 'drawing.svg');
  const response = await fetch(`${server.api}/uploads?duplicate=true`, { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; path: string };
}

/** The decoded PNG a variant URL answers: its size and the pixel at (x, y). */
async function drawn(server: TestServer, url: string, x: number, y: number) {
  const response = await fetch(`${server.origin}${url}`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('image/png');
  const image = sharp(Buffer.from(await response.arrayBuffer()));
  const meta = await image.metadata();
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return { format: meta.format, width: meta.width, height: meta.height, pixel: [...data.subarray(at, at + 4)] };
}

describe('SVG uploads without a size of their own: sized and drawn as a browser draws them', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it.each([
    { name: 'no width, height or viewBox: 300 x 150', root: `<svg ${SVG}>`, width: 300, height: 150 },
    { name: 'percentages alone: 300 x 150', root: `<svg ${SVG} width="100%" height="100%">`, width: 300, height: 150 },
    { name: 'a viewBox alone: its size', root: `<svg ${SVG} viewBox="0 0 600 300">`, width: 600, height: 300 },
    {
      name: 'percentages and a viewBox: the viewBox',
      root: `<svg ${SVG} width="100%" height="auto" viewBox="0 0 600 300">`,
      width: 600,
      height: 300,
    },
    { name: 'a width alone: height 150', root: `<svg ${SVG} width="200">`, width: 200, height: 150 },
    { name: 'a height alone: width 300', root: `<svg ${SVG} height="90">`, width: 300, height: 90 },
    {
      name: 'a width and a viewBox: the height from its aspect',
      root: `<svg ${SVG} width="240" viewBox="0 0 600 300">`,
      width: 240,
      height: 120,
    },
  ])('$name', async ({ root, width, height }) => {
    const svg = `${root}${BOX}</svg>`;
    const asset = await upload(server, svg);
    const detail = (await (await fetch(`${server.api}/media/${asset.id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ id: asset.id, type: 'image/svg+xml', width, height });
    // The stored drawing is the cleaned upload: no size is written into it.
    const stored = await (await fetch(`${server.origin}${asset.path}`)).text();
    expect(stored.match(/<svg[^>]*>/)?.[0]).toBe(root);
    const variant = await drawn(server, `${asset.path}?w=100&format=png`, 0, 0);
    expect(variant).toMatchObject({ format: 'png', width: 100, height: Math.round((100 * height) / width) });
    // Outside the box nothing is drawn (a drawing cut to its box would be red to the edge).
    expect(variant.pixel[3]).toBe(0);
  });

  it('draws a drawing without a size at 1:1 in its 300 x 150 box, where a browser puts it', async () => {
    const asset = await upload(server, `<svg ${SVG}>${BOX}</svg>`);
    // At a third of 300 x 150 the box spans (3.3, 3.3) to (20, 13.3).
    expect((await drawn(server, `${asset.path}?w=100&format=png`, 12, 8)).pixel).toEqual([255, 0, 0, 255]);
    expect((await drawn(server, `${asset.path}?w=100&format=png`, 60, 30)).pixel[3]).toBe(0);
    // The whole box, asked at its own size, is 300 x 150.
    expect(await drawn(server, `${asset.path}?format=png`, 299, 149)).toMatchObject({ width: 300, height: 150 });
  });

  it('sizes a drawing whose only shape has no extent (an empty group) rather than refusing its variants', async () => {
    const asset = await upload(server, `<svg ${SVG}><g/></svg>`);
    const detail = (await (await fetch(`${server.api}/media/${asset.id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ width: 300, height: 150 });
    expect(await drawn(server, `${asset.path}?w=30`, 0, 0)).toMatchObject({ width: 30, height: 15 });
  });

  it('gives a drawing kept without a size its size when the server starts', async () => {
    const asset = await upload(server, `<svg ${SVG}>${BOX}</svg>`);
    // As such a drawing was kept before it was sized.
    await new AssetRepository(server.database.db).update(asset.id, { width: null, height: null });
    const unsized = (await (await fetch(`${server.api}/media/${asset.id}`)).json()) as Record<string, unknown>;
    expect(unsized.width ?? null).toBeNull();
    await server.stop();
    server = await startTestServer(reopenOptions(server));
    const detail = (await (await fetch(`${server.api}/media/${asset.id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({ width: 300, height: 150 });
  });
});
