import { describe, expect, it } from 'vitest';
import { mediaPathsIn } from './media-references.js';

const A = '2026/03/01939a3b-1c2d-7e4f-8a9b-0c1d2e3f4a5b.png';
const B = '2025/12/01939a3b-1c2d-7e4f-9a9b-0c1d2e3f4a5c.webp';

describe('mediaPathsIn', () => {
  it.each([
    ['an image column', `/media/${A}`, [A]],
    ['Markdown with two images', `![a](/media/${A}) and ![b](/media/${B} "title")`, [A, B]],
    ['a full URL', `https://example.com/media/${A}?w=300`, [A]],
    ['JSON text (tags, meta)', JSON.stringify({ description: `see /media/${B}` }), [B]],
    ['a path followed by more characters (kept: the safe side)', `/media/${A}x`, [A]],
  ])('finds the media paths in %s', (_name, text, paths) => {
    expect(mediaPathsIn(text)).toEqual(paths);
  });

  it.each([
    ['no path', 'just text'],
    ['a name the server never makes', '/media/2026/03/holiday.png'],
    ['another prefix', `/images/${A}`],
    ['a month that does not exist', `/media/2026/13/${A.slice(8)}`],
  ])('finds none in %s', (_name, text) => {
    expect(mediaPathsIn(text)).toEqual([]);
  });
});
