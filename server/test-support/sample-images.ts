import { crc32, deflateSync } from 'node:zlib';

/**
 * Tiny valid images, 3 pixels wide and 2 high (so a swapped width/height shows), for upload tests.
 * PNG and GIF are built here byte by byte; JPEG and WebP were encoded by Chromium from a 3x2
 * canvas (`canvas.toDataURL`) and decode there at 3x2. The AVIF sample is only a valid `ftyp`
 * header plus filler: no AV1 encoder is available here, and sniffing reads only the header.
 */

/** A PNG of `width` x `height` RGB pixels, all one colour. */
export function pngImage(width = 3, height = 2): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typeAndData));
    return Buffer.concat([length, typeAndData, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, deflate, no filter method, no interlace
  // Each row: filter type 0, then RGB triples.
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0xc8)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF89a, 3x2, two-colour palette; the LZW data clears the table every two pixels to stay 3-bit. */
export function gifImage(): Buffer {
  const hex = (text: string) => Buffer.from(text.replaceAll(' ', ''), 'hex');
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    hex('03 00 02 00 80 00 00'), // logical screen 3 x 2, a global colour table of 2 entries
    hex('ff 00 00 00 00 ff'), // the table: red, blue
    hex('2c 00 00 00 00 03 00 02 00 00'), // image descriptor: 3 x 2 at 0,0
    hex('02 04 0c 08 10 28 00'), // LZW code size 2; one sub-block: clear 1 0 clear 0 0 clear 0 0 end; terminator
    hex('3b'), // trailer
  ]);
}

/** A baseline JPEG, 3x2, with an sRGB ICC profile segment before the frame header. */
export function jpegImage(): Buffer {
  return Buffer.from(JPEG_BASE64, 'base64');
}

/** A lossy WebP (VP8X + ICC + VP8), 3x2. */
export function webpImage(): Buffer {
  return Buffer.from(WEBP_BASE64, 'base64');
}

/** An AVIF `ftyp` box (major brand avif, compatible mif1 miaf) followed by filler bytes. */
export function avifHeaderSample(): Buffer {
  const ftyp = Buffer.alloc(28);
  ftyp.writeUInt32BE(28, 0);
  ftyp.write('ftypavif', 4, 'latin1');
  ftyp.writeUInt32BE(0, 12);
  ftyp.write('avifmif1miaf', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(100, 0x20)]);
}

const JPEG_BASE64 =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/4gHYSUNDX1BST0ZJTEUAAQEAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADb/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/2wBDARESEhgVGC8aGi9jQjhCY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2NjY2P/wAARCAACAAMDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAX/xAAVEAEBAAAAAAAAAAAAAAAAAAAAMf/EABUBAQEAAAAAAAAAAAAAAAAAAAQG/8QAFxEAAwEAAAAAAAAAAAAAAAAAAAECMf/aAAwDAQACEQMRAD8AnyACVrKKcR//2Q==';

const WEBP_BASE64 =
  'UklGRhwCAABXRUJQVlA4WAoAAAAgAAAAAgAAAQAASUNDUMgBAAAAAAHIAAAAAAQwAABtbnRyUkdCIFhZWiAH4AABAAEAAAAAAABhY3NwAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA9tYAAQAAAADTLQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAlkZXNjAAAA8AAAACRyWFlaAAABFAAAABRnWFlaAAABKAAAABRiWFlaAAABPAAAABR3dHB0AAABUAAAABRyVFJDAAABZAAAAChnVFJDAAABZAAAAChiVFJDAAABZAAAAChjcHJ0AAABjAAAADxtbHVjAAAAAAAAAAEAAAAMZW5VUwAAAAgAAAAcAHMAUgBHAEJYWVogAAAAAAAAb6IAADj1AAADkFhZWiAAAAAAAABimQAAt4UAABjaWFlaIAAAAAAAACSgAAAPhAAAts9YWVogAAAAAAAA9tYAAQAAAADTLXBhcmEAAAAAAAQAAAACZmYAAPKnAAANWQAAE9AAAApbAAAAAAAAAABtbHVjAAAAAAAAAAEAAAAMZW5VUwAAACAAAAAcAEcAbwBvAGcAbABlACAASQBuAGMALgAgADIAMAAxADZWUDggLgAAAHABAJ0BKgMAAgACwEwlqAJ0AXUAAP7o1xt2J9LaZrJ9/8uBfD/sD/wGL/jgAAA=';
