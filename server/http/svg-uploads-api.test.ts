import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SVG_BYTES } from '../media/svg-sanitizer.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { ResponseChecker } from '../test-support/openapi-responses.js';
import { REFUSED_SVGS, svgLeftovers, svgPayloads } from '../test-support/svg-payloads.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import { SVG_MEDIA_HEADERS } from './media-routes.js';

/** The origin the hostile payloads aim at; nothing listens there, the stored bytes must not name it. */
const BEACON = 'http://beacon.invalid:8';

function svgForm(svg: string | Buffer, fileName = 'drawing.svg'): FormData {
  const form = new FormData();
  form.append(
    'file',
    new Blob([typeof svg === 'string' ? Buffer.from(svg) : svg], { type: 'image/svg+xml' }),
    fileName,
  );
  return form;
}

async function send(server: TestServer, method: string, url: string, form: FormData) {
  const response = await fetch(`${server.api}${url}`, { method, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

/** The served original: its text and headers. */
async function served(server: TestServer, path: string): Promise<{ text: string; headers: Headers }> {
  const response = await fetch(`${server.origin}${path}`);
  expect(response.status).toBe(200);
  return { text: await response.text(), headers: response.headers };
}

async function assetCount(server: TestServer): Promise<number> {
  const response = await fetch(`${server.api}/media?limit=1`);
  return ((await response.json()) as { total: number }).total;
}

const BENIGN = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
<!-- Generator: a drawing program -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 120 80">
  <style>.st0 { fill: url(#g); stroke: #123 }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#f80"/><stop offset="1" stop-color="#08f"/></linearGradient>
  <path id="p" d="M0 0h10v10z"/></defs>
  <rect class="st0" width="120" height="80" style="opacity: 0.9"/>
  <use xlink:href="#p" x="20"/><a href="#p"><text x="4" y="70">Quire</text></a>
</svg>`;

describe('SVG uploads: cleaned at upload, served under a policy that runs nothing', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('keeps a drawing whole: gradients, styles, local use and links; its size from the viewBox', async () => {
    const { status, body } = await send(server, 'POST', '/uploads?duplicate=true', svgForm(BENIGN, 'logo.svg'));
    expect(status).toBe(201);
    const document = (await (await fetch(`${server.api}/openapi.json`)).json()) as OpenApiDocument;
    expect(new ResponseChecker(document).problems('POST', '/uploads', status, body)).toEqual([]);
    expect(body).toMatchObject({ type: 'image/svg+xml', width: 120, height: 80, file_name: 'logo.svg' });
    expect(body.path).toMatch(/\.svg$/);
    const { text, headers } = await served(server, body.path);
    expect(body.size).toBe(Buffer.byteLength(text));
    for (const kept of [
      'url(#g)',
      'stroke: #123',
      'stop-color="#f80"',
      'xlink:href="#p"',
      'href="#p"',
      '>Quire</text>',
    ]) {
      expect(text).toContain(kept);
    }
    expect(text).not.toMatch(/DOCTYPE|Generator/);
    for (const [name, value] of Object.entries(SVG_MEDIA_HEADERS)) expect(headers.get(name), name).toBe(value);
    expect(headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
  });

  it.each(svgPayloads(BEACON))('stores $name without anything that runs or loads', async ({ svg }) => {
    const { status, body } = await send(server, 'POST', '/uploads?duplicate=true', svgForm(svg));
    expect(status).toBe(201);
    expect(body.type).toBe('image/svg+xml');
    const { text, headers } = await served(server, body.path);
    expect(svgLeftovers(text, BEACON)).toEqual([]);
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(headers.get('content-type')).toBe('image/svg+xml');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('content-security-policy')).toContain('sandbox');
  });

  it('cleans a replacement file as it cleans an upload (PUT /api/media/:id/file)', async () => {
    const { body: asset } = await send(server, 'POST', '/uploads?duplicate=true', svgForm(BENIGN));
    // Every payload's attack in one drawing (those that are a whole document of their own aside).
    const hostile = svgPayloads(BEACON)
      .filter((payload) => payload.svg.startsWith('<svg '))
      .map((payload) => payload.svg.replace(/^<svg [^>]*>|<\/svg>$/g, ''))
      .join('');
    const replacement = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="48">${hostile}</svg>`;
    const { status, body } = await send(server, 'PUT', `/media/${asset.id}/file`, svgForm(replacement));
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: asset.id, path: asset.path, width: 64, height: 48 });
    const { text } = await served(server, asset.path);
    expect(svgLeftovers(text, BEACON)).toEqual([]);
    expect(text).toContain('<rect width="40" height="30" fill="#3a7"/>');
  });

  it.each(REFUSED_SVGS)('refuses $name ($status) and keeps nothing', async ({ svg, status, code }) => {
    const before = await assetCount(server);
    const answer = await send(server, 'POST', '/uploads?duplicate=true', svgForm(svg));
    expect(answer.status).toBe(status);
    expect(answer.body.error).toMatchObject({ status, code });
    expect(await assetCount(server)).toBe(before);
  });

  it('refuses a drawing sized beyond the pixel limit with 413, as a raster image', async () => {
    const huge =
      '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="9" height="9"/></svg>';
    const before = await assetCount(server);
    const answer = await send(server, 'POST', '/uploads', svgForm(huge));
    expect(answer.status).toBe(413);
    expect(answer.body.error.message).toContain('100000 x 100000 pixels');
    expect(await assetCount(server)).toBe(before);
  });

  it('refuses an SVG over the drawing limit with 413 and the limit as data', async () => {
    const padding = `<desc>${'x'.repeat(MAX_SVG_BYTES)}</desc>`;
    const big = `<svg xmlns="http://www.w3.org/2000/svg">${padding}</svg>`;
    const before = await assetCount(server);
    const answer = await send(server, 'POST', '/uploads', svgForm(big));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toMatchObject({
      code: 'payload_too_large',
      detail: { code: 'too_large', limit: MAX_SVG_BYTES },
    });
    expect(await assetCount(server)).toBe(before);
  });

  it('answers a variant of an SVG as a raster made from the cleaned drawing', async () => {
    const { body } = await send(server, 'POST', '/uploads?duplicate=true', svgForm(BENIGN));
    const response = await fetch(`${server.origin}${body.path}?w=60`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: 'png',
      width: 60,
      height: 40,
    });
    const webp = await fetch(`${server.origin}${body.path}?w=60&format=auto`, {
      headers: { accept: 'image/webp,*/*' },
    });
    expect(webp.headers.get('content-type')).toBe('image/webp');
  });
});
