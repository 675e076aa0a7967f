import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A colour at a pixel, as [red, green, blue] from 0 to 255. */
export type Paint = (x: number, y: number) => readonly [number, number, number];

/** Encodes an RGB image as a real PNG file (for upload tests and seeded demo images). */
export function makePng(width: number, height: number, paint: Paint): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // no filter
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw.set([r, g, b], row + 1 + x * 3);
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A small picture: a sky fading into a sea, with a sun; `hue` shifts its colours. */
export function landscapePng(width: number, height: number, hue = 0): Buffer {
  const sunX = width * (0.3 + 0.4 * ((hue % 60) / 60));
  const sunY = height * 0.38;
  const sunR = height * 0.14;
  const horizon = height * 0.62;
  const mix = (a: number, b: number, t: number) => Math.round(a + (b - a) * t);
  const tint = (r: number, g: number, b: number) => {
    const shift = hue / 360;
    return [mix(r, b, shift), mix(g, r, shift * 0.6), mix(b, g, shift * 0.4)] as const;
  };
  return makePng(width, height, (x, y) => {
    if (Math.hypot(x - sunX, y - sunY) < sunR) return tint(255, 214, 130);
    if (y < horizon) {
      const t = y / horizon;
      return tint(mix(90, 250, t), mix(120, 190, t), mix(200, 170, t));
    }
    const t = (y - horizon) / (height - horizon);
    const wave = Math.sin(x / 9 + y / 3) > 0.92 ? 30 : 0;
    return tint(mix(40, 20, t) + wave, mix(110, 60, t) + wave, mix(160, 110, t) + wave);
  });
}
