import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingBitmap } from './search-posting-bitmap.js';
import { PostingStage } from './search-posting-stage.js';

describe('postings staged for an index build', () => {
  it('end up exactly as if added one by one, across flushes and growth', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(7), fc.integer({ min: 0, max: 200_000 })), { maxLength: 3_000 }),
        fc.integer({ min: 1, max: 5_000 }),
        (postings, capacity) => {
          // Rows come in increasing order, as a build reads them; a row may repeat for one bitmap.
          const rows = postings.map(([bitmap, row]) => [bitmap, row] as const).sort((a, b) => a[1] - b[1]);
          const direct = Array.from({ length: 8 }, () => new PostingBitmap());
          const staged = Array.from({ length: 8 }, () => new PostingBitmap());
          const stage = new PostingStage(capacity);
          for (const [bitmap, row] of rows) {
            direct[bitmap].add(row);
            stage.add(staged[bitmap], row);
          }
          stage.close();
          for (let i = 0; i < 8; i++) {
            expect(staged[i].toArray()).toEqual(direct[i].toArray());
            expect(staged[i].size).toBe(direct[i].size);
            expect(staged[i].stageId).toBe(-1);
          }
        },
      ),
      { numRuns: 200, seed: 13 },
    );
  });

  it('holds nothing back once flushed', () => {
    const bitmap = new PostingBitmap();
    const stage = new PostingStage();
    stage.add(bitmap, 5);
    stage.add(bitmap, 70_000);
    expect(bitmap.size).toBe(0);
    stage.flush();
    expect(bitmap.toArray()).toEqual([5, 70_000]);
  });
});
