import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { avifHeaderSample } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/** A JPEG of `width` x `height` in three vertical stripes, red, green and blue, with a random tint so every run's bytes (and cache names) are new. */
async function stripedJpeg(width = 1200, height = 800): Promise<Buffer> {
  return striped(width, height, 'jpeg');
}

async function striped(width: number, height: number, format: 'jpeg' | 'png'): Promise<Buffer> {
  const third = Math.round(width / 3);
  const tint = Math.floor(Math.random() * 40);
  const stripe = (r: number, g: number, b: number) =>
    sharp({ create: { width: third, height, channels: 3, background: { r, g, b } } })
      .png()
      .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 0, g: tint, b: 255 } } })
    .composite([
      { input: await stripe(255, tint, 0), left: 0, top: 0 },
      { input: await stripe(tint, 255, 0), left: third, top: 0 },
    ])
    .toFormat(format, { quality: 95 })
    .toBuffer();
}

/** Uploads bytes and answers the stored path. */
async function upload(server: TestServer, bytes: Buffer, name = 'photo.jpg'): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), name);
  const response = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
  const body = (await response.json()) as { path: string };
  expect(response.status).toBe(201);
  return body.path;
}

/** Fetches a URL and decodes the answer's bytes with sharp. */
async function getImage(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const meta = response.status === 200 ? await sharp(bytes).metadata() : null;
  return { response, bytes, meta };
}

/** The RGB of the pixel at the centre of an image. */
async function centrePixel(bytes: Buffer): Promise<number[]> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const offset = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
  return [...data.subarray(offset, offset + 3)];
}

/** The variant cache folder of a test server: its own, in its folder, on either engine. */
function cacheDirOf(server: TestServer): string {
  return join(server.dir, 'media-cache');
}

/** Cache files made for an original of this content hash. */
function cachedVariants(server: TestServer, hash: string): string[] {
  try {
    return readdirSync(join(cacheDirOf(server), hash.slice(0, 2))).filter((name) => name.startsWith(hash));
  } catch {
    return [];
  }
}

/** A PNG whose header says `width` x `height` and whose image data is a few bytes: decoding it would take gigabytes. */
function pixelBombPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** Whether EXIF bytes hold a GPS IFD pointer (tag 0x8825), in either byte order. */
function hasGpsTag(exif: Buffer | undefined): boolean {
  return !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

/** A 40 x 20 JPEG stored turned a quarter (EXIF orientation 6, shown 20 x 40) with a GPS position and a copyright. */
function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 20, channels: 3, background: '#336699' } })
    .jpeg()
    .withExif({
      IFD0: { Copyright: 'Someone private' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 24/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 3/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

describe('image variants (GET /media/...?w=&h=&fit=&format=&q=)', () => {
  let server: TestServer;
  let path: string;
  let stored: Buffer;
  let hash: string;
  beforeAll(async () => {
    server = await startTestServer();
    path = await upload(server, await stripedJpeg());
    stored = Buffer.from(await (await fetch(`${server.origin}${path}`)).arrayBuffer());
    hash = createHash('sha256').update(stored).digest('hex');
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('resizes by width, height and fit, keeping the aspect ratio where only one side is given', async () => {
    const cases: [string, number, number][] = [
      ['w=300', 300, 200],
      ['h=200', 300, 200],
      ['w=300&h=300', 300, 300],
      ['w=300&h=300&fit=cover', 300, 300],
      ['w=300&h=300&fit=contain', 300, 300],
      ['w=300&h=300&fit=inside', 300, 200],
    ];
    for (const [query, width, height] of cases) {
      const { response, meta } = await getImage(`${server.origin}${path}?${query}`);
      expect(response.status, query).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(meta).toMatchObject({ format: 'jpeg', width, height });
    }
  });

  it('writes each format, checked by decoding the bytes', async () => {
    for (const [format, type, decoded] of [
      ['webp', 'image/webp', 'webp'],
      ['avif', 'image/avif', 'heif'],
      ['png', 'image/png', 'png'],
      ['jpeg', 'image/jpeg', 'jpeg'],
    ]) {
      const { response, meta } = await getImage(`${server.origin}${path}?w=120&format=${format}&q=50`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(meta).toMatchObject({ format: decoded, width: 120, height: 80 });
      if (format === 'avif') expect(meta?.compression).toBe('av1');
    }
  });

  it('crops around the centre when no focal point is set', async () => {
    // A tall box out of a wide image keeps only the middle: the green stripe.
    const { meta, bytes } = await getImage(`${server.origin}${path}?w=100&h=400&fit=cover&format=png`);
    expect(meta).toMatchObject({ width: 100, height: 400 });
    const [r, g, b] = await centrePixel(bytes);
    expect(g).toBeGreaterThan(200);
    expect(r).toBeLessThan(80);
    expect(b).toBeLessThan(80);
    // contain keeps the whole image, padded: red on the left, blue on the right, in the middle row.
    const contained = await getImage(`${server.origin}${path}?w=300&h=300&fit=contain&format=png`);
    const { data, info } = await sharp(contained.bytes).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + info.channels),
    ];
    expect(at(5, 150)[0]).toBeGreaterThan(200);
    expect(at(295, 150)[2]).toBeGreaterThan(200);
    // Above the image, the padding is transparent.
    expect(at(150, 5)[3]).toBe(0);
  });

  it('negotiates format=auto from Accept: AVIF, then WebP, then the original format; with Vary: Accept', async () => {
    const url = `${server.origin}${path}?w=90&format=auto`;
    const avif = await getImage(url, { accept: 'image/avif,image/webp,image/apng,*/*;q=0.8' });
    expect(avif.response.headers.get('content-type')).toBe('image/avif');
    expect(avif.meta?.format).toBe('heif');
    expect(avif.response.headers.get('vary')).toMatch(/\bAccept\b/i);
    const webp = await getImage(url, { accept: 'image/webp,*/*' });
    expect(webp.response.headers.get('content-type')).toBe('image/webp');
    expect(webp.meta?.format).toBe('webp');
    const plain = await getImage(url, { accept: '*/*' });
    expect(plain.response.headers.get('content-type')).toBe('image/jpeg');
    expect(plain.meta?.format).toBe('jpeg');
    expect(
      new Set([
        avif.response.headers.get('etag'),
        webp.response.headers.get('etag'),
        plain.response.headers.get('etag'),
      ]).size,
    ).toBe(3);
    // A fixed format does not depend on Accept.
    const fixed = await fetch(`${server.origin}${path}?w=90&format=webp`, { headers: { accept: 'image/avif' } });
    expect(fixed.headers.get('vary') ?? '').not.toMatch(/\bAccept\b/i);
  });

  it('makes a variant once and serves it from the cache after, with a strong ETag and 304s', async () => {
    const url = `${server.origin}${path}?w=222&format=webp`;
    expect(cachedVariants(server, hash).filter((name) => name.includes('222x'))).toEqual([]);
    const first = await fetch(url);
    const firstBytes = Buffer.from(await first.arrayBuffer());
    const made = cachedVariants(server, hash).filter((name) => name.includes('222x'));
    expect(made).toHaveLength(1);
    const file = join(cacheDirOf(server), hash.slice(0, 2), made[0]);
    const madeAt = statSync(file).mtimeMs;
    const etag = first.headers.get('etag') as string;
    expect(etag).toMatch(/^"[^W]/);

    const second = await fetch(url);
    expect(Buffer.from(await second.arrayBuffer())).toEqual(firstBytes);
    expect(second.headers.get('etag')).toBe(etag);
    expect(statSync(file).mtimeMs).toBe(madeAt);
    expect(cachedVariants(server, hash).filter((name) => name.includes('222x'))).toHaveLength(1);

    const revalidated = await fetch(url, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
  });

  it('makes a variant asked for by many requests at once only once', async () => {
    const url = `${server.origin}${path}?w=333&format=png`;
    const answers = await Promise.all(Array.from({ length: 6 }, () => fetch(url)));
    const bodies = await Promise.all(answers.map(async (answer) => Buffer.from(await answer.arrayBuffer())));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    expect(cachedVariants(server, hash).filter((name) => name.includes('333x'))).toHaveLength(1);
    // No temporary file is left beside it.
    expect(readdirSync(join(cacheDirOf(server), hash.slice(0, 2))).filter((name) => name.endsWith('.part'))).toEqual(
      [],
    );
  });

  it('is immutable for a year only on a URL that names the content hash', async () => {
    const named = await fetch(`${server.origin}${path}?w=100&v=${hash}`);
    expect(named.status).toBe(200);
    expect(named.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const query of ['w=100', `w=100&v=${'0'.repeat(64)}`]) {
      const answer = await fetch(`${server.origin}${path}?${query}`);
      expect(answer.headers.get('cache-control')).toBe('no-cache');
    }
    // The variant is an image of this server: the same protections as the original.
    expect(named.headers.get('x-content-type-options')).toBe('nosniff');
    expect(named.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('gives originals the same validators: the content hash as ETag, immutable only with ?v=, a 304 when unchanged', async () => {
    const plain = await fetch(`${server.origin}${path}`);
    expect(plain.headers.get('cache-control')).toBe('no-cache');
    const etag = plain.headers.get('etag') as string;
    expect(etag).toBe(`"${hash.slice(0, 32)}"`);
    expect(Buffer.from(await plain.arrayBuffer())).toEqual(stored);
    const named = await fetch(`${server.origin}${path}?v=${hash}`);
    expect(named.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await named.arrayBuffer())).toEqual(stored);
    expect((await fetch(`${server.origin}${path}`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('refuses sizes out of range and unknown parameters with a 400, and never enlarges', async () => {
    for (const query of [
      'w=0',
      'w=4097',
      'h=99999',
      'w=abc',
      'w=10&w=20',
      'fit=fill',
      'format=tiff',
      'q=0',
      'q=101',
      'w=10&blur=5',
    ]) {
      const answer = await fetch(`${server.origin}${path}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as any).error.code).toBe('bad_request');
    }
    // Within 4096 but beyond the 1200 x 800 original: the original's size, the box scaled down as a whole.
    expect((await getImage(`${server.origin}${path}?w=4000`)).meta).toMatchObject({ width: 1200, height: 800 });
    expect((await getImage(`${server.origin}${path}?w=2400&h=1200`)).meta).toMatchObject({ width: 1200, height: 600 });
    // A path that is not an upload stays a 404, whatever the query.
    expect((await fetch(`${server.origin}/media/2026/01/nothing.png?w=10`)).status).toBe(404);
  });

  it('crops at the focal point the media library holds; a new focal point or a replaced file makes a new variant', async () => {
    const form = new FormData();
    form.append('file', new Blob([await stripedJpeg()]), 'stripes.jpg');
    const asset = (await (await fetch(`${server.api}/uploads`, { method: 'POST', body: form })).json()) as {
      id: string;
      path: string;
    };
    const setFocal = async (x: number) => {
      const answer = await fetch(`${server.api}/media/${asset.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ focal: { x, y: 0.5 } }),
      });
      expect(answer.status).toBe(200);
    };
    const url = `${server.origin}${asset.path}?w=100&h=400&fit=cover&format=png`;
    await setFocal(0.05);
    const left = await getImage(url);
    expect(left.meta).toMatchObject({ width: 100, height: 400 });
    const [r, , b] = await centrePixel(left.bytes);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(80);
    await setFocal(0.95);
    const right = await getImage(url);
    expect((await centrePixel(right.bytes))[2]).toBeGreaterThan(200);
    expect(right.response.headers.get('etag')).not.toBe(left.response.headers.get('etag'));
    // Even with the content hash in the URL a crop is revalidated: the focal point can move under it.
    const { hash } = (await (await fetch(`${server.api}/media/${asset.id}`)).json()) as { hash: string };
    const named = await fetch(`${url}&v=${hash}`);
    expect(named.status).toBe(200);
    expect(named.headers.get('cache-control')).toBe('no-cache');
    await setFocal(0.05);
    const moved = await fetch(`${url}&v=${hash}`, { headers: { 'if-none-match': named.headers.get('etag') ?? '' } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('etag')).toBe(left.response.headers.get('etag'));

    // The file replaced: the same URL answers from the new bytes, never the old variant.
    const white = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#ffffff' } })
      .jpeg()
      .toBuffer();
    const replacement = new FormData();
    replacement.append('file', new Blob([white]), 'white.jpg');
    const replaced = await fetch(`${server.api}/media/${asset.id}/file`, { method: 'PUT', body: replacement });
    expect(replaced.status).toBe(200);
    const after = await getImage(url);
    expect(await centrePixel(after.bytes)).toEqual([255, 255, 255]);
    expect(after.response.headers.get('etag')).not.toBe(right.response.headers.get('etag'));
    // The original's ETag follows its bytes, so a cached copy of the old file is not reused.
    const original = await fetch(`${server.origin}${asset.path}`);
    expect(original.headers.get('etag')).toBe(
      `"${createHash('sha256')
        .update(Buffer.from(await original.arrayBuffer()))
        .digest('hex')
        .slice(0, 32)}"`,
    );
  });

  it('answers HEAD like GET without a body, and refuses variants of a file it cannot decode with a 415', async () => {
    const head = await fetch(`${server.origin}${path}?w=64&format=webp`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('image/webp');
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    // An AVIF whose header only is valid is kept as uploaded (the original is served), but not resized.
    const undecodable = await upload(server, avifHeaderSample(), 'odd.avif');
    expect((await fetch(`${server.origin}${undecodable}`)).status).toBe(200);
    const refused = await fetch(`${server.origin}${undecodable}?w=10`);
    expect(refused.status).toBe(415);
    expect(((await refused.json()) as any).error.code).toBe('unsupported_media_type');
  });

  it('strips GPS and other EXIF from uploads, applying the orientation to the pixels', async () => {
    const original = await jpegWithGps();
    const before = await sharp(original).metadata();
    expect(hasGpsTag(before.exif)).toBe(true);
    expect(before.orientation).toBe(6);
    const kept = await upload(server, original);
    const { meta } = await getImage(`${server.origin}${kept}`);
    expect(meta?.exif).toBeUndefined();
    expect(meta?.xmp).toBeUndefined();
    expect(meta?.orientation).toBeUndefined();
    // Upright as shown before: 20 wide and 40 high.
    expect(meta).toMatchObject({ format: 'jpeg', width: 20, height: 40 });
  });

  it('refuses at upload an image of more pixels than the limit, reading only its header (a decompression bomb)', async () => {
    const form = new FormData();
    form.append('file', new Blob([pixelBombPng(30000, 30000)]), 'bomb.png');
    const answer = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
    expect(answer.status).toBe(413);
    const body = (await answer.json()) as any;
    expect(body.error.code).toBe('payload_too_large');
    expect(body.error.message).toContain('30000 x 30000 pixels');
  });
});

describe('image options: --image-sizes, --keep-image-metadata and the pixel limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ images: { sizes: [160, 320], keepMetadata: true, maxPixels: 1_000_000 } });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('makes only the sizes of the allow-list', async () => {
    const path = await upload(server, await stripedJpeg(900, 600));
    expect((await getImage(`${server.origin}${path}?w=320`)).meta).toMatchObject({ width: 320, height: 213 });
    expect((await getImage(`${server.origin}${path}?w=160&h=160`)).meta).toMatchObject({ width: 160, height: 160 });
    for (const query of ['w=300', 'w=320&h=100']) {
      const answer = await fetch(`${server.origin}${path}?${query}`);
      expect(answer.status, query).toBe(400);
      expect(((await answer.json()) as any).error.message).toContain('160, 320');
    }
  });

  it('keeps metadata in originals when told to, but never in variants', async () => {
    const path = await upload(server, await jpegWithGps());
    const original = await getImage(`${server.origin}${path}`);
    expect(hasGpsTag(original.meta?.exif)).toBe(true);
    const variant = await getImage(`${server.origin}${path}?w=160`);
    expect(variant.meta?.exif).toBeUndefined();
    // Shown upright (20 x 40 scaled): the orientation was applied.
    expect(variant.meta).toMatchObject({ width: 20, height: 40 });
  });

  it('refuses an image over its pixel limit with a 413 and keeps nothing', async () => {
    const form = new FormData();
    form.append('file', new Blob([await striped(1200, 900, 'png')]), 'big.png');
    const answer = await fetch(`${server.api}/uploads`, { method: 'POST', body: form });
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as any).error.message).toContain('1000000 pixels');
  });
});

/** Every variant file in a server's cache folder, with its size. */
function allCached(server: TestServer): { name: string; bytes: number }[] {
  const root = cacheDirOf(server);
  let folders: string[];
  try {
    folders = readdirSync(root);
  } catch {
    return [];
  }
  return folders.flatMap((folder) =>
    readdirSync(join(root, folder)).map((name) => ({ name, bytes: statSync(join(root, folder, name)).size })),
  );
}

describe('the variant cache: a size cap, and the variants of replaced or deleted files removed at once', () => {
  /** Cache cap of the capped server: a few 300 px PNG variants of the striped test image. */
  const CAP = 3_000;
  let server: TestServer;
  let capped: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    capped = await startTestServer({ images: { cacheMaxBytes: CAP } });
  });
  afterAll(async () => {
    await server.dispose();
    await capped.dispose();
  });

  const uploadAsset = async (target: TestServer, bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'photo.jpg');
    const answer = await fetch(`${target.api}/uploads`, { method: 'POST', body: form });
    expect(answer.status).toBe(201);
    return (await answer.json()) as { id: string; path: string; hash: string };
  };

  it('deletes the old file variants when an asset file is replaced, and the rest when it is deleted', async () => {
    const asset = await uploadAsset(server, await stripedJpeg());
    for (const query of ['w=120', 'w=240&format=webp']) {
      expect((await fetch(`${server.origin}${asset.path}?${query}`)).status).toBe(200);
    }
    expect(cachedVariants(server, asset.hash)).toHaveLength(2);

    const replacement = new FormData();
    replacement.append('file', new Blob([await stripedJpeg(900, 600)]), 'other.jpg');
    const replaced = await fetch(`${server.api}/media/${asset.id}/file`, { method: 'PUT', body: replacement });
    expect(replaced.status).toBe(200);
    const newHash = ((await replaced.json()) as { hash: string }).hash;
    expect(newHash).not.toBe(asset.hash);
    expect(cachedVariants(server, asset.hash)).toEqual([]);

    expect((await fetch(`${server.origin}${asset.path}?w=120`)).status).toBe(200);
    expect(cachedVariants(server, newHash)).toHaveLength(1);
    const deleted = await fetch(`${server.api}/media/${asset.id}?force=true`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(cachedVariants(server, newHash)).toEqual([]);
  });

  it('keeps the folder under --image-cache-mb, deleting the least recently used variants first', async () => {
    const asset = await uploadAsset(capped, await stripedJpeg());
    const url = (width: number) => `${capped.origin}${asset.path}?w=${width}&format=png`;
    expect((await fetch(url(300))).status).toBe(200);
    const [first] = allCached(capped);
    // 16 variants of some hundreds of bytes each pass the cap; the first, asked again each time, is never the least recent.
    for (let width = 301; width <= 315; width++) {
      expect((await fetch(url(width))).status).toBe(200);
      expect((await fetch(url(300))).status).toBe(200);
      const total = allCached(capped).reduce((sum, file) => sum + file.bytes, 0);
      expect(total, `after ${width} px`).toBeLessThanOrEqual(CAP);
    }
    const left = allCached(capped).map((file) => file.name);
    expect(left).toContain(first.name);
    expect(left.length).toBeLessThan(16);
    // The newest variants are the ones kept.
    expect(left.some((name) => name.includes('-315x'))).toBe(true);
    expect(left.some((name) => name.includes('-301x'))).toBe(false);
  });
});
