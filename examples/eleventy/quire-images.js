/**
 * How the site shows an upload: as a `<picture>` whose sources offer right-sized AVIF and WebP
 * (`srcset`, `sizes`) and whose `<img>` always has a width and height (no layout shift) and alt
 * text. From an export written with `quire export --image-widths ... --image-formats ...`, the
 * image's manifest (`media/<path>.json`) names the variant files the export holds; from a running
 * Quire, the row's `media` member gives the pixels, alt text and content hash, and the sources are
 * the server's variant URLs (`/media/<path>?w=&format=&v=<hash>`, cached for ever) at
 * QUIRE_MEDIA_URL (where visitors reach Quire's media; default QUIRE_URL). QUIRE_IMAGE_WIDTHS and
 * QUIRE_IMAGE_FORMATS (default `480,960,1920` and `avif,webp`) say what is asked of a server; a
 * server started with `--image-sizes` must allow those widths.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { exportDir, mediaFile, origin } from './quire-source.js';

/** How wide the layout shows an image, for the browser to pick a source before it lays out the page. */
export const IMAGE_SIZES = '(max-width: 60rem) 100vw, 60rem';

const list = (value, fallback) =>
  (value || fallback)
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
const widths = list(process.env.QUIRE_IMAGE_WIDTHS, '480,960,1920')
  .map(Number)
  .sort((a, b) => a - b);
const formats = list(process.env.QUIRE_IMAGE_FORMATS, 'avif,webp');
const mediaOrigin = (process.env.QUIRE_MEDIA_URL || origin).replace(/\/$/, '');

/** The widths asked of an original `width` pixels wide: never wider than it. */
function widthsFor(width) {
  const fitting = widths.filter((candidate) => candidate <= width);
  if (widths.some((candidate) => candidate > width)) fitting.push(width);
  return [...new Set(fitting)];
}

async function manifestOf(path) {
  try {
    return JSON.parse(await readFile(join(exportDir, ...`${path}.json`.split('/').filter(Boolean)), 'utf8'));
  } catch {
    return null;
  }
}

/** An upload's size read from its bytes: for files the media library does not describe. */
async function measured(path) {
  try {
    const { width, height } = await sharp(await mediaFile(path)).metadata();
    return { width, height };
  } catch (error) {
    console.warn(`[quire] ${path}: no width and height (${error.message})`);
    return null;
  }
}

/**
 * How to show the upload at `path` (`{ src, width, height, alt, sources: [{ type, srcset }] }`,
 * sources best first), from the export's manifest or the row's `media` member (`layout`), else
 * from its bytes; null when its size cannot be known.
 */
export async function quireImage(path, layout) {
  if (exportDir) {
    const manifest = await manifestOf(path);
    if (manifest) {
      const sources = manifest.sources.map(({ type, srcset }) => ({ type, srcset }));
      return { src: path, width: manifest.width, height: manifest.height, alt: manifest.alt, sources };
    }
  }
  if (layout?.width && layout.height) {
    const sources = exportDir
      ? []
      : formats.map((format) => ({
          type: `image/${format}`,
          srcset: widthsFor(layout.width)
            .map((width) => `${mediaOrigin}${path}?w=${width}&format=${format}&v=${layout.hash} ${width}w`)
            .join(', '),
        }));
    return { src: path, width: layout.width, height: layout.height, alt: layout.alt, sources };
  }
  const size = await measured(path);
  return size ? { src: path, ...size, alt: layout?.alt ?? '', sources: [] } : null;
}
