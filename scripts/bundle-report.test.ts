import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script without type declarations
import { bundleReport, editorAssets } from './bundle-report.mjs';

const rendererDir = join(import.meta.dirname, '..', 'dist', 'renderer');
const built = existsSync(join(rendererDir, 'index.html'));

interface Asset {
  name: string;
  initial: boolean;
  size: number;
  gzip: number;
}

// `npm test` builds the editor before the tests run; a bare `vitest` run without a build skips these.
describe.skipIf(!built)('the built editor (needs `npm run build` first)', () => {
  const assets = editorAssets(rendererDir) as Asset[];

  it('loads the transliteration tables only when a slug is first made', () => {
    const initial = assets.filter((asset) => asset.initial);
    expect(initial.some((asset) => asset.name.startsWith('index-') && asset.name.endsWith('.js'))).toBe(true);
    expect(initial.some((asset) => asset.name.startsWith('any-ascii'))).toBe(false);
    expect(assets.some((asset) => !asset.initial && asset.name.startsWith('any-ascii'))).toBe(true);
  });

  it('opens with under 635 kB of files, the transliteration tables not among them', () => {
    const initialRaw = assets.filter((asset) => asset.initial).reduce((sum, asset) => sum + asset.size, 0);
    expect(initialRaw).toBeLessThan(635 * 1024);
  });

  it('reports the gzip size of what opening the editor loads', () => {
    expect(bundleReport(rendererDir)).toMatch(/^Editor bundle: \d+\.\d kB gzip to open \(index-.*any-ascii \d+\.\d kB/);
  });
});
