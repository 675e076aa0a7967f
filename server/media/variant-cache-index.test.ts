import { describe, expect, it } from 'vitest';
import { VariantCacheIndex } from './variant-cache-index.js';

describe('the variant cache pruning rule', () => {
  it('prunes nothing while the total is within the cap', () => {
    const index = new VariantCacheIndex(1000);
    index.use('a', 400);
    index.use('b', 600);
    expect(index.total).toBe(1000);
    expect(index.overflow()).toEqual([]);
    expect(index.size).toBe(2);
  });

  it('prunes the least recently used files first, down to 90 % of the cap', () => {
    const index = new VariantCacheIndex(1000);
    for (const file of ['a', 'b', 'c', 'd', 'e']) index.use(file, 200);
    index.use('f', 200);
    // 1200 bytes over a cap of 1000: a, then b, go (800 <= 900).
    expect(index.overflow()).toEqual(['a', 'b']);
    expect(index.total).toBe(800);
    expect(index.overflow()).toEqual([]);
  });

  it('counts a hit as a use, so a file read often outlives older ones made later', () => {
    const index = new VariantCacheIndex(1000);
    for (const file of ['a', 'b', 'c', 'd', 'e']) index.use(file, 200);
    expect(index.touch('a')).toBe(true);
    expect(index.touch('unknown')).toBe(false);
    index.use('f', 200);
    expect(index.overflow()).toEqual(['b', 'c']);
    expect(index.forgetWhere(() => true).sort()).toEqual(['a', 'd', 'e', 'f']);
  });

  it('keeps the newest file even when it alone is over the cap', () => {
    const index = new VariantCacheIndex(100);
    index.use('small', 50);
    index.use('huge', 500);
    expect(index.overflow()).toEqual(['small']);
    expect(index.overflow()).toEqual([]);
    expect(index.total).toBe(500);
  });

  it('replaces a known file size instead of counting it twice, and forgets what matches', () => {
    const index = new VariantCacheIndex(1000);
    index.use('hash1-800.webp', 300);
    index.use('hash1-800.webp', 350);
    index.use('hash1-400.webp', 100);
    index.use('hash2-800.webp', 200);
    expect(index.total).toBe(650);
    expect(index.forgetWhere((file) => file.startsWith('hash1'))).toEqual(['hash1-800.webp', 'hash1-400.webp']);
    expect(index.total).toBe(200);
    expect(index.forget('hash2-800.webp')).toBe(true);
    expect(index.forget('hash2-800.webp')).toBe(false);
    expect(index.total).toBe(0);
  });
});
