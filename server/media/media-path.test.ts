import { posix } from 'node:path';
import fc from 'fast-check';
import { v4 as uuidv4 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { isMediaPath, parseRelativeMediaPath } from '../../common/media-rules.js';
import { IMAGE_KINDS } from './image-sniffing.js';
import { kindOfFileName, newMediaName } from './media-path.js';

const png = IMAGE_KINDS[0];
const ID = '019a4c7e-5b2d-7c3e-9f10-2a3b4c5d6e7f';

describe('newMediaName', () => {
  it('files a UUIDv7 name with the sniffed extension under the UTC year and month', () => {
    const name = newMediaName(png, new Date('2026-11-30T23:59:59Z'));
    expect(name.folders).toEqual(['2026', '11']);
    expect(name.fileName).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.png$/);
    expect(name.path).toBe(`/media/2026/11/${name.fileName}`);
    expect(isMediaPath(name.path)).toBe(true);
  });

  it('never repeats a name', () => {
    const names = new Set(Array.from({ length: 1000 }, () => newMediaName(png).fileName));
    expect(names.size).toBe(1000);
  });

  it('gives every allowed kind a name the path check accepts, with its own extension', () => {
    for (const kind of IMAGE_KINDS) {
      const { path, fileName } = newMediaName(kind);
      expect(isMediaPath(path)).toBe(true);
      expect(kindOfFileName(fileName)).toBe(kind);
    }
  });
});

describe('isMediaPath', () => {
  it('accepts a generated path', () => {
    expect(isMediaPath(`/media/2026/01/${ID}.jpg`)).toBe(true);
    // An SVG is stored only as cleaned at upload (svg-sanitizer.ts).
    expect(isMediaPath(`/media/2026/01/${ID}.svg`)).toBe(true);
  });

  it.each([
    ['no /media/ prefix', `/2026/01/${ID}.png`],
    ['a relative path', `media/2026/01/${ID}.png`],
    ['an absolute URL', `http://127.0.0.1:4780/media/2026/01/${ID}.png`],
    ['a parent segment', `/media/2026/01/../../${ID}.png`],
    ['a parent segment at the end', '/media/2026/01/..'],
    ['an encoded parent segment', `/media/2026/%2e%2e/${ID}.png`],
    ['an encoded slash', `/media/2026%2f01/${ID}.png`],
    ['a backslash', `/media/2026\\01\\${ID}.png`],
    ['a doubled slash', `/media//2026/01/${ID}.png`],
    ['an absolute file path after the prefix', '/media//etc/passwd'],
    ['a dotfile', '/media/2026/01/.incoming'],
    ['a client-chosen name', '/media/2026/01/photo.png'],
    ['month 13', `/media/2026/13/${ID}.png`],
    ['a UUIDv4 name', `/media/2026/01/${uuidv4()}.png`],
    ['upper-case hex', `/media/2026/01/${ID.toUpperCase()}.png`],
    ['an XHTML extension', `/media/2026/01/${ID}.xhtml`],
    ['an HTML extension', `/media/2026/01/${ID}.html`],
    ['a double extension', `/media/2026/01/${ID}.png.html`],
    ['an upper-case extension', `/media/2026/01/${ID}.PNG`],
    ['a trailing slash', `/media/2026/01/${ID}.png/`],
    ['a query string', `/media/2026/01/${ID}.png?x=1`],
    ['a NUL byte', `/media/2026/01/${ID}.png\u0000.html`],
    ['a trailing newline', `/media/2026/01/${ID}.png\n`],
    ['the empty string', ''],
  ])('refuses %s', (_name, value) => {
    expect(isMediaPath(value)).toBe(false);
  });

  it('refuses non-strings without throwing (values come from request bodies)', () => {
    expect(isMediaPath(42 as unknown as string)).toBe(false);
    expect(isMediaPath(null as unknown as string)).toBe(false);
  });

  it('only accepts paths that stay inside /media/ when normalized', () => {
    const segment = fc.constantFrom('..', '.', '', '%2e%2e', '2026', '01', `${ID}.png`, 'x', '%2f', '\\');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), (segments) => {
        const value = `/media/${segments.join('/')}`;
        if (!isMediaPath(value)) return;
        expect(posix.normalize(value)).toBe(value);
        expect(value).not.toMatch(/%|\\|\/\.\.?(\/|$)/);
      }),
    );
  });
});

describe('parseRelativeMediaPath', () => {
  it('splits a generated relative path into year, month and file name', () => {
    expect(parseRelativeMediaPath(`2026/01/${ID}.webp`)).toEqual(['2026', '01', `${ID}.webp`]);
    expect(parseRelativeMediaPath(`2026/01/${ID}.webp/..`)).toBeNull();
  });
});
