import { crc32 } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { avifHeaderSample, gifImage, jpegImage, pngImage, webpImage } from '../test-support/sample-images.js';
import { IMAGE_KINDS, imageSize, sniffImage } from './image-sniffing.js';

/** A RIFF/WEBP container whose first chunk is `fourcc` with `payload`. */
function webpWith(fourcc: string, payload: number[]): Buffer {
  const chunk = Buffer.concat([Buffer.from(fourcc, 'latin1'), Buffer.alloc(4), Buffer.from(payload)]);
  chunk.writeUInt32LE(payload.length, 4);
  const riff = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.alloc(4), Buffer.from('WEBP', 'latin1'), chunk]);
  riff.writeUInt32LE(riff.length - 8, 4);
  return riff;
}

/** A JPEG whose frame header (`marker`, 200 high, 300 wide) follows an APPn segment of `appBytes`. */
function jpegWithFrame(marker: number, appBytes: number): Buffer {
  const app = Buffer.alloc(4 + appBytes);
  app.set([0xff, 0xe1], 0);
  app.writeUInt16BE(appBytes + 2, 2);
  const frame = Buffer.from([0xff, marker, 0x00, 0x11, 0x08, 0x00, 200, 0x01, 0x2c, 0x03]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app, frame, Buffer.alloc(20)]);
}

describe('sniffImage', () => {
  it.each([
    ['PNG', pngImage(), 'image/png', 'png'],
    ['JPEG', jpegImage(), 'image/jpeg', 'jpg'],
    ['GIF', gifImage(), 'image/gif', 'gif'],
    ['WebP', webpImage(), 'image/webp', 'webp'],
    ['AVIF', avifHeaderSample(), 'image/avif', 'avif'],
  ])('recognizes %s by its first bytes', (_name, bytes, type, extension) => {
    expect(sniffImage(bytes)).toEqual({ type, extension });
  });

  it('recognizes each WebP chunk kind (lossy, lossless, extended)', () => {
    for (const fourcc of ['VP8 ', 'VP8L', 'VP8X']) {
      expect(sniffImage(webpWith(fourcc, new Array(20).fill(0)))?.type).toBe('image/webp');
    }
  });

  it('recognizes AVIF by a compatible brand when the major brand is generic', () => {
    const ftyp = Buffer.alloc(24);
    ftyp.writeUInt32BE(24, 0);
    ftyp.write('ftypmif1', 4, 'latin1');
    ftyp.write('miafavif', 16, 'latin1');
    expect(sniffImage(Buffer.concat([ftyp, Buffer.alloc(40)]))?.type).toBe('image/avif');
  });

  it('recognizes an animated PNG (an acTL chunk after IHDR) as PNG and reads its size', () => {
    const png = pngImage(640, 480);
    const actlData = Buffer.from([0, 0, 0, 2, 0, 0, 0, 0]); // 2 frames, looping forever
    const actl = Buffer.concat([Buffer.from([0, 0, 0, 8]), Buffer.from('acTL', 'latin1'), actlData, Buffer.alloc(4)]);
    actl.writeUInt32BE(crc32(actl.subarray(4, 16)), 16);
    const apng = Buffer.concat([png.subarray(0, 33), actl, png.subarray(33)]);
    expect(sniffImage(apng)).toEqual({ type: 'image/png', extension: 'png' });
    expect(imageSize(sniffImage(apng)!, apng)).toEqual({ width: 640, height: 480 });
  });

  const text = (value: string) => Buffer.from(value, 'utf8');
  const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), text('ftypheicmif1heicmiaf'), Buffer.alloc(40)]);
  // Only the start is sniffed: the whole text is parsed and cleaned before it is kept (svg-sanitizer.ts).
  it.each([
    ['SVG', text('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['SVG with an XML prolog', text('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>')],
    [
      'SVG after a byte order mark and a comment',
      text('\uFEFF\n<!-- Generator: an editor of drawings, version 24.1 -->'),
    ],
    ['SVG with a DOCTYPE', text('<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd">')],
  ])('takes %s as SVG', (_label, bytes) => {
    expect(sniffImage(bytes)).toEqual({ type: 'image/svg+xml', extension: 'svg' });
    expect(imageSize(sniffImage(bytes)!, bytes)).toBeNull();
  });

  it.each([
    ['empty input', Buffer.alloc(0)],
    ['plain text', text('hello, this is not an image at all')],
    ['an svg root not at the start', text('hello <svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['HTML', text('<!doctype html><html><body><script>alert(1)</script></body></html>')],
    ['HTML after a UTF-8 byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text('<html>')])],
    ['a PNG signature without its IHDR chunk', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])],
    ['a truncated JPEG start', Buffer.from([0xff, 0xd8])],
    ['GIF with an unknown version', text('GIF88a\u0003\u0000\u0002\u0000')],
    ['a RIFF WAVE file', Buffer.concat([text('RIFF'), Buffer.alloc(4), text('WAVEfmt '), Buffer.alloc(20)])],
    [
      'RIFF WEBP with an unknown chunk',
      Buffer.concat([text('RIFF'), Buffer.alloc(4), text('WEBPABCD'), Buffer.alloc(8)]),
    ],
    ['HEIC (an ISO-BMFF image without an AVIF brand)', heic],
    ['PDF', text('%PDF-1.7\n%âãÏÓ\n1 0 obj')],
    ['ZIP', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00])],
    ['BMP', Buffer.concat([text('BM'), Buffer.alloc(60)])],
    ['ICO', Buffer.from([0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x10, 0x10])],
  ])('refuses %s', (_name, bytes) => {
    expect(sniffImage(bytes)).toBeNull();
  });

  it('never throws, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const kind = sniffImage(bytes);
        expect(kind === null || IMAGE_KINDS.includes(kind)).toBe(true);
      }),
    );
  });
});

describe('imageSize', () => {
  it.each([
    ['PNG', pngImage(640, 480), 640, 480],
    ['GIF', gifImage(), 3, 2],
    ['JPEG (after an ICC profile segment)', jpegImage(), 3, 2],
    ['WebP (extended)', webpImage(), 3, 2],
  ])('reads the pixel size of %s', (_name, bytes, width, height) => {
    const kind = sniffImage(bytes);
    expect(kind).not.toBeNull();
    expect(imageSize(kind!, bytes)).toEqual({ width, height });
  });

  it('reads lossy (VP8) and lossless (VP8L) WebP sizes', () => {
    // VP8 key frame: 3-byte frame tag, start code, 14-bit width 300 and height 200.
    const lossy = webpWith('VP8 ', [0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, 0x2c, 0x01, 0xc8, 0x00, 0, 0]);
    // VP8L: signature 0x2f, then (width - 1) | (height - 1) << 14 little-endian.
    const bits = 299 | (199 << 14);
    const lossless = webpWith('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24, 0]);
    for (const bytes of [lossy, lossless])
      expect(imageSize(sniffImage(bytes)!, bytes)).toEqual({ width: 300, height: 200 });
  });

  it('finds the JPEG frame header after a large metadata segment, progressive included', () => {
    for (const marker of [0xc0, 0xc2]) {
      const bytes = jpegWithFrame(marker, 60_000);
      expect(imageSize(sniffImage(bytes)!, bytes)).toEqual({ width: 300, height: 200 });
    }
  });

  it('gives no size when the header bytes do not hold it', () => {
    const jpegHead = jpegWithFrame(0xc0, 60_000).subarray(0, 1000);
    expect(imageSize(sniffImage(jpegHead)!, jpegHead)).toBeNull();
    const avif = avifHeaderSample();
    expect(imageSize(sniffImage(avif)!, avif)).toBeNull();
    // A zero dimension is not a size.
    const empty = pngImage(0, 2);
    expect(imageSize(sniffImage(empty)!, empty)).toBeNull();
  });

  it('never throws on a recognized header followed by arbitrary bytes', () => {
    const heads = [pngImage(), jpegImage(), gifImage(), webpImage(), avifHeaderSample()].map((bytes) =>
      bytes.subarray(0, 16),
    );
    fc.assert(
      fc.property(fc.constantFrom(...heads), fc.uint8Array({ maxLength: 64 }), (head, tail) => {
        const bytes = Buffer.concat([head, tail]);
        const kind = sniffImage(bytes);
        expect(kind).not.toBeNull();
        const size = imageSize(kind!, bytes);
        expect(size === null || (size.width > 0 && size.height > 0)).toBe(true);
      }),
    );
  });
});
