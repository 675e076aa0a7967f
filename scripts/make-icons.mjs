#!/usr/bin/env node
// `npm run icons`: draws Quire's app icon (a quire: a stack of sheets, the front one holding rows
// of content, on an indigo tile) and writes every file the installers need into resources/:
// icon.png (1024 px), icons/NxN.png (Linux), icon.ico (Windows), icon.icns (macOS). Pure Node:
// shapes are signed-distance functions, anti-aliased by supersampling, encoded with zlib.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'resources');

// ---- shapes, in a unit square (0..1, y down) ----
function roundedBox(px, py, cx, cy, halfW, halfH, radius, angle = 0) {
  const cos = Math.cos(-angle);
  const sin = Math.sin(-angle);
  const dx = px - cx;
  const dy = py - cy;
  const x = Math.abs(dx * cos - dy * sin) - halfW + radius;
  const y = Math.abs(dx * sin + dy * cos) - halfH + radius;
  return Math.hypot(Math.max(x, 0), Math.max(y, 0)) + Math.min(Math.max(x, y), 0) - radius;
}

const INDIGO_TOP = [79, 84, 214];
const INDIGO_BOTTOM = [45, 48, 140];
const INK = [63, 67, 180];

/** Colour (premultiplied r, g, b, a) of one sample point. */
function sample(x, y) {
  let r = 0;
  let g = 0;
  let b = 0;
  let a = 0;
  const over = (color, alpha) => {
    r = color[0] * alpha + r * (1 - alpha);
    g = color[1] * alpha + g * (1 - alpha);
    b = color[2] * alpha + b * (1 - alpha);
    a = alpha + a * (1 - alpha);
  };
  if (roundedBox(x, y, 0.5, 0.5, 0.41, 0.41, 0.09) > 0) return [0, 0, 0, 0];
  const t = (y - 0.09) / 0.82;
  over(
    INDIGO_TOP.map((top, index) => top + (INDIGO_BOTTOM[index] - top) * t),
    1,
  );
  // Two sheets behind, turned a little, then the front sheet.
  if (roundedBox(x, y, 0.47, 0.52, 0.2, 0.26, 0.025, -0.16) < 0) over([255, 255, 255], 0.35);
  if (roundedBox(x, y, 0.5, 0.51, 0.2, 0.26, 0.025, -0.07) < 0) over([255, 255, 255], 0.6);
  if (roundedBox(x, y, 0.53, 0.5, 0.2, 0.26, 0.025) < 0) {
    over([255, 255, 255], 1);
    // Rows of content on the front sheet: a title bar and lines of text.
    if (roundedBox(x, y, 0.51, 0.34, 0.11, 0.028, 0.028) < 0) over(INK, 1);
    for (const [row, width] of [
      [0.45, 0.13],
      [0.53, 0.13],
      [0.61, 0.09],
    ]) {
      if (roundedBox(x, y, 0.53 - 0.13 + width, row, width, 0.018, 0.018) < 0) over(INK, 0.35);
    }
  }
  return [r, g, b, a];
}

/** RGBA pixels of the icon at `size` px, 5x5 samples per pixel. */
function render(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const grid = 5;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < grid; sy++) {
        for (let sx = 0; sx < grid; sx++) {
          const [sr, sg, sb, sa] = sample((px + (sx + 0.5) / grid) / size, (py + (sy + 0.5) / grid) / size);
          r += sr;
          g += sg;
          b += sb;
          a += sa;
        }
      }
      const n = grid * grid;
      const offset = (py * size + px) * 4;
      const alpha = a / n;
      pixels[offset] = alpha > 0 ? Math.round(r / n / alpha) : 0;
      pixels[offset + 1] = alpha > 0 ? Math.round(g / n / alpha) : 0;
      pixels[offset + 2] = alpha > 0 ? Math.round(b / n / alpha) : 0;
      pixels[offset + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

// ---- PNG ----
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buffer) {
  let c = 0xffffffff;
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
function png(size) {
  const pixels = render(size);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---- ICO (PNG entries) and ICNS ----
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + 16 * images.length;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry[0] = size >= 256 ? 0 : size;
    entry[1] = size >= 256 ? 0 : size;
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}
function icns(images) {
  const parts = images.map(({ type, data }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

const sizes = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const images = new Map(sizes.map((size) => [size, png(size)]));
mkdirSync(join(out, 'icons'), { recursive: true });
writeFileSync(join(out, 'icon.png'), images.get(1024));
for (const size of [16, 24, 32, 48, 64, 128, 256, 512]) {
  writeFileSync(join(out, 'icons', `${size}x${size}.png`), images.get(size));
}
writeFileSync(
  join(out, 'icon.ico'),
  ico([16, 24, 32, 48, 64, 128, 256].map((size) => ({ size, data: images.get(size) }))),
);
writeFileSync(
  join(out, 'icon.icns'),
  icns([
    { type: 'icp4', data: images.get(16) },
    { type: 'icp5', data: images.get(32) },
    { type: 'icp6', data: images.get(64) },
    { type: 'ic07', data: images.get(128) },
    { type: 'ic08', data: images.get(256) },
    { type: 'ic09', data: images.get(512) },
    { type: 'ic10', data: images.get(1024) },
  ]),
);
console.log(`Wrote resources/icon.png, icon.ico, icon.icns and icons/ (${sizes.join(', ')} px).`);
