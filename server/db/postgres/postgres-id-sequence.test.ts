import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { SnapshotReader } from '../../search/search-snapshot-codec.js';
import { written } from '../../test-support/snapshot-bytes.js';
import { IdSequence } from './postgres-id-sequence.js';

const id = (k: number) => `id-${String(k).padStart(8, '0')}`;

/** The sequence written and read back, as a saved index holds it. */
function saved(sequence: IdSequence): IdSequence {
  const input = new SnapshotReader(written((out) => sequence.write(out)));
  const read = IdSequence.read(input);
  expect(input.done).toBe(true);
  return read;
}

describe('IdSequence', () => {
  it('pages matches in id order after rows written late, as sorting them would', () => {
    // fast-check's default 100 runs; each builds up to 500 rows.
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }),
        fc.array(fc.integer({ min: -50, max: 50 }), { maxLength: 200 }),
        fc.array(fc.boolean(), { minLength: 600, maxLength: 600 }),
        fc.integer({ min: 0, max: 40 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 60 }),
        fc.boolean(),
        (built, late, matchFlags, skip, descending, sparsity, reload) => {
          const building = new IdSequence();
          const rows: { n: number; key: number }[] = [];
          for (let k = 0; k < built; k++) {
            rows.push({ n: k + 1, key: k * 100 });
            building.append(k + 1, id(k * 100));
          }
          // Saved at a clean stop and read back at the next start, then written on.
          const sequence = reload ? saved(building) : building;
          // Written since: mostly after the last id, some a little before it (commits out of order).
          let top = built * 100;
          for (const [i, shift] of late.entries()) {
            top += 100;
            const key = top + shift * 3 + (i % 7);
            if (rows.some((row) => row.key === key)) continue;
            const n = built + i + 1;
            rows.push({ n, key });
            sequence.written(n, id(key));
          }
          // An update of a row already held changes nothing.
          if (rows.length > 0) sequence.written(rows[0].n, id(rows[0].key));
          expect(sequence.holds).toBe(true);
          const matches = new PostingBitmap();
          // Dense and sparse matches: walked, or sorted by their places.
          for (const row of rows) {
            if (matchFlags[row.n % matchFlags.length] && row.n % sparsity === 0) matches.add(row.n);
          }
          const ordered = [...rows].sort((a, b) => a.key - b.key).filter((row) => matches.has(row.n));
          if (descending) ordered.reverse();
          expect(sequence.page(matches, skip, 20, descending)).toEqual(
            ordered.slice(skip, skip + 20).map((row) => row.n),
          );
          expect(sequence.size).toBe(rows.length);
        },
      ),
    );
  });

  it('stops holding for an id before the ids it keeps, or one that is not ASCII text', () => {
    const early = new IdSequence();
    for (let k = 1; k <= 10_000; k++) early.append(k, id(k * 10));
    early.written(10_001, id(5));
    expect(early.holds).toBe(false);
    const odd = new IdSequence();
    odd.append(1, id(1));
    odd.written(2, 'ïd');
    expect(odd.holds).toBe(false);
    const unordered = new IdSequence();
    unordered.append(1, id(2));
    unordered.append(2, id(1));
    expect(unordered.holds).toBe(false);
    expect(saved(unordered).holds).toBe(false);
    expect(saved(early).holds).toBe(false);
  });
});
