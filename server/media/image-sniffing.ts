import type { UploadMediaType } from '../../common/api-contract.js';
import type { MediaExtension } from '../../common/media-rules.js';

/**
 * Recognizes uploaded images by their first bytes. The file name and the client's Content-Type are
 * never consulted: both are whatever the sender chose, so a `.png` name or an `image/png` header on
 * an HTML page must not make it servable as an image. Raster formats browsers decode without
 * running anything are allowed, and SVG: a text that starts like XML is taken as an SVG here, and
 * is then parsed and cleaned whole before it is kept (see `sanitizeSvg`), which refuses any XML
 * whose root is not an SVG `<svg>`.
 *
 * Written here rather than with file-type: file-type decides by shorter signatures (it takes
 * `GIF88a` for a GIF and any RIFF/WEBP for WebP, whatever its first chunk), calls an AVIF whose
 * major brand is the generic `mif1` HEIF, names animated PNGs `image/apng`, is async only, and
 * loads many modules at start-up where this file is small. Our checks on top of it would leave
 * nothing for it to do.
 */

/** An allowed image format: its media type and the extension stored files get. */
export interface ImageKind {
  type: UploadMediaType;
  extension: MediaExtension;
}

/** Pixel size read from an image's header. */
export interface ImageSize {
  width: number;
  height: number;
}

const PNG: ImageKind = { type: 'image/png', extension: 'png' };
const JPEG: ImageKind = { type: 'image/jpeg', extension: 'jpg' };
const GIF: ImageKind = { type: 'image/gif', extension: 'gif' };
const WEBP: ImageKind = { type: 'image/webp', extension: 'webp' };
const AVIF: ImageKind = { type: 'image/avif', extension: 'avif' };
const SVG: ImageKind = { type: 'image/svg+xml', extension: 'svg' };

/** Every allowed format. */
export const IMAGE_KINDS: readonly ImageKind[] = [PNG, JPEG, GIF, WEBP, AVIF, SVG];

/** The media types of the allowed formats, as documents list them. */
export const UPLOAD_MEDIA_TYPES: readonly UploadMediaType[] = IMAGE_KINDS.map((kind) => kind.type);

/**
 * How an SVG may start (after a byte order mark and white space): an XML declaration, a comment
 * (editors write their name there) or a DOCTYPE before the root, or the root itself.
 */
const SVG_START = /^(?:\uFEFF)?\s*(?:<\?xml|<!--|<!DOCTYPE\s+svg[\s>]|<svg[\s>/])/;

/** How many leading bytes `sniffImage` needs to decide (fewer is fine when the file is shorter). */
export const SNIFF_BYTES = 64;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const AVIF_BRANDS = new Set(['avif', 'avis']);

const ascii = (bytes: Buffer, start: number, end: number): string => bytes.toString('latin1', start, end);

/** The allowed format these leading bytes start, or null when they start anything else. */
export function sniffImage(head: Uint8Array): ImageKind | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  // PNG: the 8-byte signature, then the IHDR chunk that must come first.
  if (bytes.length >= 16 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && ascii(bytes, 12, 16) === 'IHDR') return PNG;
  // JPEG: SOI then the first marker.
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return JPEG;
  if (bytes.length >= 6 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) return GIF;
  // WebP: a RIFF container of form type WEBP whose first chunk is one of the three WebP chunks.
  if (
    bytes.length >= 16 &&
    ascii(bytes, 0, 4) === 'RIFF' &&
    ascii(bytes, 8, 12) === 'WEBP' &&
    ['VP8 ', 'VP8L', 'VP8X'].includes(ascii(bytes, 12, 16))
  ) {
    return WEBP;
  }
  if (isAvif(bytes)) return AVIF;
  if (SVG_START.test(bytes.toString('utf8', 0, Math.min(bytes.length, SNIFF_BYTES)))) return SVG;
  return null;
}

/** AVIF: an ISO-BMFF `ftyp` box whose major or a compatible brand is `avif` (still) or `avis` (sequence). */
function isAvif(bytes: Buffer): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = bytes.readUInt32BE(0);
  if (boxSize < 16 || boxSize % 4 !== 0) return false;
  const end = Math.min(boxSize, bytes.length);
  // Brands: major at 8, minor version at 12, compatible brands from 16 to the end of the box.
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  return brands.some((brand) => AVIF_BRANDS.has(brand));
}

/**
 * Width and height from the header bytes of a sniffed image, or null when they are not within
 * `head` (a JPEG's frame header can follow large metadata segments) or not read for this format
 * (AVIF keeps them in a nested box; the response simply omits them).
 */
export function imageSize(kind: ImageKind, head: Uint8Array): ImageSize | null {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const size = readSize(kind, bytes);
  return size && size.width > 0 && size.height > 0 ? size : null;
}

function readSize(kind: ImageKind, bytes: Buffer): ImageSize | null {
  switch (kind.type) {
    case 'image/png':
      return bytes.length >= 24 ? { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) } : null;
    case 'image/gif':
      return bytes.length >= 10 ? { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) } : null;
    case 'image/webp':
      return webpSize(bytes);
    case 'image/jpeg':
      return jpegSize(bytes);
    default:
      return null;
  }
}

function webpSize(bytes: Buffer): ImageSize | null {
  const chunk = ascii(bytes, 12, 16);
  if (chunk === 'VP8X' && bytes.length >= 30) {
    // Canvas size minus one, 24-bit little-endian each.
    return { width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
  }
  if (chunk === 'VP8L' && bytes.length >= 25 && bytes[20] === 0x2f) {
    // 14 bits each of width-1 and height-1 after the one-byte signature.
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8 ' && bytes.length >= 30 && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
    // Key frame: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height (2 bits of scale).
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  return null;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); not DHT C4, JPG C8, DAC CC. */
const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks the JPEG segments up to the frame header (height before width there). */
function jpegSize(bytes: Buffer): ImageSize | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1];
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      offset += 2; // segments without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame
    const length = bytes.readUInt16BE(offset + 2);
    if (length < 2) return null;
    if (JPEG_FRAME_MARKERS.has(marker)) {
      if (offset + 9 > bytes.length) return null;
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}
