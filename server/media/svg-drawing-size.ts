import { SNIFF_BYTES, sniffImage } from './image-sniffing.js';

/**
 * The size an SVG is drawn at when nothing else sizes it, as browsers draw it in an `<img>`: its
 * `width` and `height` when both are lengths; one of them with the other from the `viewBox`'s
 * aspect; the `viewBox`'s own width and height when it has neither; and otherwise the CSS default
 * object size, 300 x 150 (a missing side alone taking 300 or 150). The image library would instead
 * take the bounding box of what is drawn, or fail on a drawing without one, so variants and the
 * size an upload records are read from a copy whose root says its size (`drawableSvg`); the
 * stored file itself is never changed.
 */

/** The CSS default object size: what a replaced element without any size of its own is drawn at. */
export const DEFAULT_OBJECT_SIZE = { width: 300, height: 150 } as const;

/** Anything before the root element: a byte order mark, white space, the XML declaration, comments, a DOCTYPE. */
const PROLOG = String.raw`^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*`;
/** The root's start tag: `<svg` and its attributes, each quoted as XML requires. */
const ROOT_TAG = new RegExp(`${PROLOG}<svg((?:\\s+[^\\s=/>]+\\s*=\\s*(?:"[^"]*"|'[^']*'))*)\\s*(/?)>`);
const ATTRIBUTE = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** A length that sizes the drawing: a positive number with an absolute or font unit (a percentage or `auto` does not). */
const LENGTH = /^\s*\+?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*(?:px|in|cm|mm|pt|pc|em|ex|rem)?\s*$/i;

function isLength(value: string | undefined): value is string {
  return value !== undefined && LENGTH.test(value) && Number.parseFloat(value.trim().replace(/^\+/, '')) > 0;
}

/** The viewBox's width and height, or null when it has none that gives an aspect. */
function viewBoxSize(value: string | undefined): { width: number; height: number } | null {
  const numbers = (value ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  if (numbers.length !== 4 || numbers.some((number) => !Number.isFinite(number))) return null;
  const [, , width, height] = numbers;
  return width > 0 && height > 0 ? { width, height } : null;
}

/**
 * `bytes` as the image library should draw them: an SVG whose root lacks a width or height gets
 * the ones a browser would draw it at (see above), the rest of the text unchanged; anything else,
 * including an SVG sized already, is returned as it is.
 */
export function drawableSvg(bytes: Buffer): Buffer {
  if (sniffImage(bytes.subarray(0, SNIFF_BYTES))?.type !== 'image/svg+xml') return bytes;
  const text = bytes.toString('utf8');
  const root = ROOT_TAG.exec(text);
  if (!root) return bytes;
  const attributes = new Map<string, string>();
  for (const match of root[1].matchAll(ATTRIBUTE)) attributes.set(match[1], match[2] ?? match[3]);
  const width = attributes.get('width');
  const height = attributes.get('height');
  if (isLength(width) && isLength(height)) return bytes;
  const box = viewBoxSize(attributes.get('viewBox'));
  const sized = new Map<string, string>();
  if (isLength(width)) {
    // With an aspect the library derives the height from the width, as a browser does.
    if (!box) sized.set('height', String(DEFAULT_OBJECT_SIZE.height));
  } else if (isLength(height)) {
    if (!box) sized.set('width', String(DEFAULT_OBJECT_SIZE.width));
  } else {
    sized.set('width', String(box?.width ?? DEFAULT_OBJECT_SIZE.width));
    sized.set('height', String(box?.height ?? DEFAULT_OBJECT_SIZE.height));
  }
  // A percentage or `auto` sizes nothing here: it goes, and the side is derived or given above.
  const kept = [...root[1].matchAll(ATTRIBUTE)]
    .filter((match) => !['width', 'height'].includes(match[1]) || isLength(match[2] ?? match[3]))
    .map((match) => ` ${match[0]}`);
  const added = [...sized].map(([name, value]) => ` ${name}="${value}"`);
  const tag = `<svg${kept.join('')}${added.join('')}${root[2]}>`;
  const start = root.index + root[0].length - root[0].slice(root[0].lastIndexOf('<svg')).length;
  return Buffer.from(`${text.slice(0, start)}${tag}${text.slice(root.index + root[0].length)}`, 'utf8');
}
