import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answer, applyWrites, type ScanRows, type ScanWrite, scan } from '../test-support/search-scan.js';
import { MemorySearchIndex } from './search-memory-index.js';
import { answerable } from './search-memory-keywords.js';
import { PostingBitmap } from './search-posting-bitmap.js';
import { WordPairs } from './search-word-pairs.js';

/** Numbers spread over a few 65,536-wide groups, dense enough in one to turn it into a bitmap. */
const member = fc.oneof(fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 300_000 }));

describe('PostingBitmap', () => {
  it('holds exactly what a Set holds through adds and removes, in increasing order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), member), { maxLength: 600 }), (steps) => {
        const bitmap = new PostingBitmap();
        const model = new Set<number>();
        for (const [add, value] of steps) {
          if (add) {
            bitmap.add(value);
            model.add(value);
          } else {
            bitmap.remove(value);
            model.delete(value);
          }
        }
        expect(bitmap.size).toBe(model.size);
        expect(bitmap.toArray()).toEqual([...model].sort((a, b) => a - b));
        for (const [, value] of steps) expect(bitmap.has(value)).toBe(model.has(value));
      }),
      { numRuns: 200, seed: 13 },
    );
  });

  it('switches a dense group to a bitmap and back through removals without losing members', () => {
    const bitmap = new PostingBitmap();
    for (let i = 0; i < 10_000; i += 2) bitmap.add(70_000 + i);
    expect(bitmap.size).toBe(5000);
    for (let i = 0; i < 10_000; i += 4) bitmap.remove(70_000 + i);
    expect(bitmap.size).toBe(2500);
    expect(bitmap.toArray().every((value) => (value - 70_002) % 4 === 0)).toBe(true);
  });

  it('intersects, unites, subtracts and pages like sets, dense and sparse groups mixed', () => {
    const sets = fc.array(fc.uniqueArray(fc.oneof(member, fc.integer({ min: 0, max: 9000 })), { maxLength: 6000 }), {
      minLength: 1,
      maxLength: 4,
    });
    fc.assert(
      fc.property(sets, (lists) => {
        const bitmaps = lists.map((list) => {
          const bitmap = new PostingBitmap();
          for (const value of list) bitmap.add(value);
          return bitmap;
        });
        const models = lists.map((list) => new Set(list));
        const and = [...models[0]].filter((value) => models.every((model) => model.has(value)));
        const or = new Set(models.flatMap((model) => [...model]));
        expect(PostingBitmap.and(bitmaps).toArray()).toEqual(and.sort((a, b) => a - b));
        expect(PostingBitmap.or(bitmaps).toArray()).toEqual([...or].sort((a, b) => a - b));
        expect(PostingBitmap.and(bitmaps).size).toBe(and.length);
        const sorted = [...models[0]].sort((a, b) => a - b);
        expect(PostingBitmap.fromSorted(sorted).toArray()).toEqual(sorted);
        expect(PostingBitmap.fromSorted(sorted).size).toBe(sorted.length);
        for (const [skip, count] of [
          [0, 20],
          [3, 5000],
          [4500, 7],
        ]) {
          expect(bitmaps[0].range(skip, count)).toEqual(sorted.slice(skip, skip + count));
          expect(bitmaps[0].range(skip, count, true)).toEqual([...sorted].reverse().slice(skip, skip + count));
        }
        const last = models[models.length - 1];
        const andNot = [...models[0]].filter((value) => !last.has(value)).sort((a, b) => a - b);
        expect(bitmaps[0].andNot(bitmaps[bitmaps.length - 1]).toArray()).toEqual(andNot);
        // addAll unites in place (a search's result taking its overlay's rows); the other is unchanged.
        const into = bitmaps[0].copy();
        into.addAll(bitmaps[bitmaps.length - 1]);
        const united = new Set([...models[0], ...last]);
        expect(into.toArray()).toEqual([...united].sort((a, b) => a - b));
        expect(into.size).toBe(united.size);
        expect(bitmaps[bitmaps.length - 1].size).toBe(last.size);
      }),
      { numRuns: 60, seed: 31 },
    );
  });
});

/** Text with the characters folding treats specially, spaces, digits and pairs outside Latin-1. */
const text = fc.oneof(
  fc.constant(null),
  fc
    .array(
      fc.constantFrom(
        'a',
        'b',
        'ab',
        'Über',
        'über',
        'U\u0308ber',
        'café',
        'İ',
        'ẞ',
        'Σ',
        '😀',
        ' ',
        '-',
        '1',
        '2',
        'xyz',
        'ﬁ',
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join('')),
);

describe('MemorySearchIndex', () => {
  it('finds exactly the rows a folded substring scan finds, for keywords of 1 character up, through writes', () => {
    const keyword = fc.oneof(
      fc.constantFrom(
        'a',
        'b',
        'ab',
        'ÜBER',
        'übe',
        'ü',
        'u\u0308',
        'ca',
        'café',
        'i̇',
        'ß',
        'σ',
        '😀',
        ' 1',
        'b-',
        'fi',
        'ﬁ',
        'xyz',
        'zy',
      ),
      fc.string({ minLength: 1, maxLength: 4 }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(60), fc.option(fc.tuple(text, text))), { maxLength: 20 }),
        fc.array(fc.array(keyword, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
        (built, writes, searches) => {
          const index = new MemorySearchIndex(2);
          const rows: ScanRows = new Map();
          built.forEach(([title, slug], i) => {
            const values = i === 3 ? [42, slug] : [title, slug];
            rows.set(i + 1, values);
            index.set(i + 1, values);
          });
          index.seal();
          applyWrites(index, rows, writes);
          expect(index.rows).toBe(rows.size);
          for (const keywords of searches) {
            if (!keywords.every(answerable)) continue;
            expect(answer(index, rows, keywords), JSON.stringify(keywords)).toEqual(scan(rows, keywords));
          }
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });

  it('answers words and keywords of up to three characters from postings alone, others after checking text', () => {
    const index = new MemorySearchIndex(2);
    index.set(1, ['Über café', 'uber-cafe']);
    index.set(2, ['ab ba', null]);
    index.set(5, ['cab', 'x']);
    index.set(6, ['x', '-cafe']);
    index.seal();
    expect(index.search(['ÜBER']).hits.toArray()).toEqual([1]);
    expect(index.search(['b']).hits.toArray()).toEqual([1, 2, 5]);
    expect(index.search(['ab']).hits.toArray()).toEqual([2, 5]);
    expect(index.search(['ba']).hits.toArray()).toEqual([2]);
    expect(index.search(['r c']).hits.toArray()).toEqual([1]);
    // Words are answered from the vocabulary of both columns: "uber" is a word of row 1's slug only.
    expect(index.search(['uber']).hits.toArray()).toEqual([1]);
    expect(index.search(['uber']).unsure).toEqual([]);
    // Two word runs around a separator are answered from the pairs of adjacent words.
    expect(index.search(['er-c'])).toEqual({ hits: index.search(['uber']).hits, unsure: [] });
    expect(index.search(['r c']).unsure).toEqual([]);
    // So is a separator before a word run, after an earlier word ("uber-cafe" for "-caf"); before a
    // column's first word (row 6's slug) it is checked against the text the build kept.
    expect(index.search(['-caf']).hits.toArray()).toEqual([1]);
    expect(index.search(['-caf']).unsure).toEqual([6]);
    // "uber-" is no substring of row 1's title, only of its slug: the build kept the title's text only.
    expect(index.search(['uber-'])).toEqual({ hits: new PostingBitmap(), unsure: [1] });
    expect(index.search(['café', 'ab']).hits.size).toBe(0);
  });

  it('leaves the postings of the build as they are: rows written after it are held in the overlay', () => {
    const rows: ScanRows = new Map([
      [1, ['alpha bravo', 'alpha-bravo']],
      [2, ['charlie delta', null]],
      [3, ['echo alpha', 'echo']],
    ]);
    const index = new MemorySearchIndex(2);
    for (const [rowid, values] of rows) index.set(rowid, values);
    index.seal();
    const before = index.search(['alpha']).hits.toArray();
    const writes: ScanWrite[] = [
      [4, ['alpha foxtrot', 'fox']], // a new row
      [2, ['alpha golf', 'golf']], // a changed row of the build
      [3, null], // a deleted one
      [4, ['hotel', 'alpha']], // a new row changed again
      [5, ['india', null]],
      [5, null], // a new row deleted
    ];
    applyWrites(index, rows, writes);
    expect(before).toEqual([1, 3]);
    expect(index.overlayRows).toBe(2); // rows 2 and 4
    expect(index.rows).toBe(3);
    for (const keywords of [['alpha'], ['golf'], ['fox'], ['charlie'], ['echo'], ['a'], ['lph'], ['alpha', 'o']]) {
      expect(answer(index, rows, keywords), keywords.join()).toEqual(scan(rows, keywords));
    }
  });

  it('answers exactly through word trigrams once it has more distinct words than it keeps', () => {
    const rows: ScanRows = new Map();
    const index = new MemorySearchIndex(2, true, 4);
    const without = new MemorySearchIndex(2, false, 4);
    const words = ['alpha', 'bravo', 'über', 'café', 'delta', 'echo', 'golf'];
    for (let i = 1; i <= 60; i++) {
      const title = `${words[i % 7]} ${words[(i * 3) % 7]} ${i}`;
      const values = [title, title.replaceAll(' ', '-').replace('ü', 'u').replace('é', 'e')];
      rows.set(i, values);
      index.set(i, values);
      without.set(i, values);
    }
    index.seal();
    expect([index.complete, without.complete]).toEqual([true, false]);
    for (const keyword of ['alpha', 'lph', 'uber', 'cafe', 'ta ech', 'o-g', 'a', 'elt', 'golf 1']) {
      expect(answer(index, rows, [keyword]), keyword).toEqual(scan(rows, [keyword]));
      // Without word trigrams, an index whose vocabulary gave up leaves every row to SQL.
      expect(answer(without, rows, [keyword]), keyword).toEqual(scan(rows, [keyword]));
    }
  });

  it('keeps pairs of adjacent words by separator, and stops answering past the pairs it keeps', () => {
    const pairs = new WordPairs(3);
    pairs.note(0, ' ', 1, 7, true);
    pairs.note(0, '-', 1, 8, true);
    pairs.note(2, ' ', 1, 9, true);
    const any = () => true;
    expect(pairs.rows(' ', any, any)?.toArray()).toEqual([7, 9]);
    expect(pairs.rows(' ', (id) => id === 2, any)?.toArray()).toEqual([9]);
    expect(pairs.rows(' - ', any, any)?.toArray()).toEqual([]);
    pairs.note(0, ' ', 1, 7, false);
    expect(pairs.rows(' ', any, any)?.toArray()).toEqual([9]);
    pairs.note(3, ' ', 4, 10, true);
    expect(pairs.rows(' ', any, any)).toBeNull();
  });

  it('leaves keywords with control characters or lone surrogates to SQL', () => {
    expect(answerable('a\u0000')).toBe(false);
    expect(answerable('\u0001')).toBe(false);
    expect(answerable('\ud800x')).toBe(false);
    expect(answerable('😀')).toBe(true);
    expect(answerable('Ü')).toBe(true);
  });
});
