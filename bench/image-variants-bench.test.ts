import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { variantsMarkdown } from './image-variants-bench.mjs';

const spread = (p50: number, p99: number, count: number) => ({ p50, p99, count });

describe("RESULTS.md's image-variant section", () => {
  it('gives each run beside the idle reads just before it, and the cache hit labelled as such', () => {
    const markdown = variantsMarkdown({
      seconds: 8,
      images: 16,
      runs: [
        {
          concurrent: 1,
          made: 20,
          perSecond: 2.5,
          firsts: spread(390, 700, 20),
          idle: spread(0.7, 10, 3000),
          others: spread(0.8, 15, 2800),
        },
        {
          concurrent: 16,
          made: 22,
          perSecond: 2.7,
          firsts: spread(5000, 7000, 22),
          idle: spread(0.7, 12, 3000),
          others: spread(0.9, 30, 2500),
        },
      ],
      hit: { cached: spread(1.2, 4, 500), original: spread(2, 5, 500) },
    });
    expect(markdown).toContain('## Image variants');
    expect(markdown).toContain(
      '| 1 | 20 | 2.5 | 390.0 ms / 700.0 ms | 0.7 ms / 10.0 ms | 0.8 ms / 15.0 ms | 1.50x | 3000, 2800 |',
    );
    expect(markdown).toContain('| 16 | 22 | 2.7 |');
    expect(markdown).toContain('2.50x');
    expect(markdown).toMatch(/Cache hit \(the same 800 px WebP URL asked again, 500 times\): p50 1\.2 ms/);
  });

  it('says why when the workload failed, and is empty when it was skipped', () => {
    expect(variantsMarkdown({ seconds: 8, error: 'upload answered 500' })).toContain('Failed: upload answered 500');
    expect(variantsMarkdown(null)).toBe('');
  });
});
