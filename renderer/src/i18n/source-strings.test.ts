import { describe, expect, it } from 'vitest';
import { findLiterals } from './literal-scanner.js';

/**
 * Screens not yet moved to the catalogs. The list only shrinks: a file that is clean must leave it
 * (the test says so), and a file not on it must stay clean.
 */
const NOT_YET_CONVERTED = new Set<string>([]);

const sources = import.meta.glob<string>(
  ['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!../**/*.d.ts', '!../test-support/**'],
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);
// Paths from renderer/src (`pages/list-page.tsx`), to their contents.
const byFile = new Map(
  Object.entries(sources).map(([path, text]) => [
    path.startsWith('./') ? `i18n/${path.slice(2)}` : path.slice(3),
    text,
  ]),
);
const files = [...byFile.keys()].filter((path) => !path.startsWith('i18n/literal-scanner')).sort();

describe('text people read comes from the catalogs', () => {
  it('scans the editor’s sources', () => {
    expect(files).toContain('app.tsx');
    expect(files.length).toBeGreaterThan(50);
  });

  for (const file of files) {
    const findings = findLiterals(file, byFile.get(file) ?? '');
    if (NOT_YET_CONVERTED.has(file)) {
      it(`${file} is still listed as not converted, and still has text of its own`, () => {
        expect(findings.length, `${file} is clean: take it off NOT_YET_CONVERTED`).toBeGreaterThan(0);
      });
    } else {
      it(`${file} writes no text of its own`, () => {
        expect(findings.map((finding) => `${file}:${finding.line} ${finding.text}`)).toEqual([]);
      });
    }
  }

  it('lists only files that exist', () => {
    expect([...NOT_YET_CONVERTED].filter((file) => !files.includes(file))).toEqual([]);
  });
});
