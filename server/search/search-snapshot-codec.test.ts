import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answer, applyWrites, type ScanRows, scan } from '../test-support/search-scan.js';
import { written } from '../test-support/snapshot-bytes.js';
import { MemorySearchIndex } from './search-memory-index.js';
import { answerable } from './search-memory-keywords.js';
import { PostingBitmap } from './search-posting-bitmap.js';
import { type LazyTail, SnapshotFormatError, SnapshotReader } from './search-snapshot-codec.js';
import { TextStore } from './search-text-store.js';

function roundTrip(index: MemorySearchIndex): MemorySearchIndex {
  const input = new SnapshotReader(written((out) => index.write(out)));
  const read = MemorySearchIndex.read(input);
  expect(input.done).toBe(true);
  return read;
}

const text = fc.oneof(
  fc.constant(null),
  fc
    .array(fc.constantFrom('a', 'b', 'ab', 'Über', 'café', 'İ', 'ẞ', '😀', '\ud800', ' ', '-', '1', 'xyz', 'ﬁ'), {
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
);
const keyword = fc.oneof(
  fc.constantFrom('a', 'b', 'ab', 'über', 'ü', 'ca', 'café', 'i̇', 'ß', '😀', ' 1', 'b-', 'fi', 'xyz', 'a b', '-c'),
  fc.string({ minLength: 1, maxLength: 4 }),
);
/** Rowids in a few 65,536-wide groups. */
const rowid = fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 65_530, max: 65_560 }));

/**
 * `buffer` as a loader leaves a file: the start says where the parts written later begin, and their
 * bytes are not there (overwritten) until the tail is filled (after `before`, which may throw).
 */
function unreadTail(buffer: ArrayBuffer, before: () => void = () => {}) {
  const eager = new DataView(buffer).getFloat64(0, true);
  const loaded = buffer.slice(0);
  new Uint8Array(loaded, eager).fill(0xee);
  let fills = 0;
  const tail: LazyTail = {
    fill() {
      fills++;
      before();
      new Uint8Array(loaded, eager).set(new Uint8Array(buffer, eager));
    },
  };
  return { reader: () => new SnapshotReader(loaded, tail), fills: () => fills };
}

describe('SnapshotWriter and SnapshotReader', () => {
  it('read back numbers, strings (lone surrogates too) and arrays as written, each array a view of the buffer', () => {
    const big = Uint16Array.from({ length: 300_000 }, (_, i) => i % 65_536);
    const buffer = written((out) => {
      out.u32(7);
      out.string('a\ud800b');
      out.f64(2 ** 40 + 0.5);
      out.u16s(Uint16Array.of(1, 2, 3));
      out.u16s(big);
      out.bytes(Buffer.from('xyz'));
      out.u32s(Uint32Array.of(4_000_000_000));
      out.string('');
    });
    const input = new SnapshotReader(buffer);
    expect(input.u32()).toBe(7);
    expect(input.string()).toBe('a\ud800b');
    expect(input.f64()).toBe(2 ** 40 + 0.5);
    const small = input.u16s(3);
    expect([...small]).toEqual([1, 2, 3]);
    expect(small.buffer).toBe(buffer);
    expect(input.u16s(big.length)).toEqual(big);
    expect(input.bytes(3).toString()).toBe('xyz');
    expect([...input.u32s(1)]).toEqual([4_000_000_000]);
    expect(input.string()).toBe('');
    expect(input.done).toBe(true);
    expect(() => input.u32()).toThrow(SnapshotFormatError);
  });

  it('passes over strings for stringAt to read where they were', () => {
    const buffer = written((out) => {
      out.string('a\ud800b');
      out.string('');
      out.string('Über');
      out.u32(9);
    });
    const input = new SnapshotReader(buffer);
    const offsets = [0, 1, 2].map(() => {
      const offset = input.offset;
      input.skipString();
      return offset;
    });
    expect(input.u32()).toBe(9);
    expect(input.done).toBe(true);
    expect(offsets.map((offset) => input.stringAt(offset))).toEqual(['a\ud800b', '', 'Über']);
  });

  it('puts parts written later after everything else, their bytes read only when the part is', () => {
    const buffer = written((out) => {
      out.u32(1);
      const part = out.later();
      part.string('later');
      part.u32s(Uint32Array.of(9, 8, 7));
      out.string('after the part');
    });
    expect(new DataView(buffer).getFloat64(0, true)).toBeLessThan(buffer.byteLength);
    const file = unreadTail(buffer);
    const input = file.reader();
    expect(input.u32()).toBe(1);
    const part = input.later();
    expect(input.string()).toBe('after the part');
    expect(input.done).toBe(true);
    expect(file.fills()).toBe(0);
    const later = part.read();
    expect(file.fills()).toBe(1);
    expect(later.string()).toBe('later');
    expect([...later.u32s(3)]).toEqual([9, 8, 7]);
    expect(later.done).toBe(true);
  });

  it('refuses a start that does not say where the parts written later begin', () => {
    const bytes = new Uint8Array(16);
    new DataView(bytes.buffer).setFloat64(0, 1e6, true);
    expect(() => new SnapshotReader(bytes.buffer)).toThrow(SnapshotFormatError);
    expect(() => new SnapshotReader(new ArrayBuffer(4))).toThrow(SnapshotFormatError);
  });

  it('rejects a posting group out of range instead of reading past it', () => {
    const buffer = written((out) => {
      out.u32(1);
      out.u32(3);
      out.u32(5000);
    });
    expect(() => PostingBitmap.read(new SnapshotReader(buffer))).toThrow(SnapshotFormatError);
  });
});

describe('MemorySearchIndex.write and read', () => {
  it('read back, answer every search as the written index did, and go on taking writes exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 40 }),
        fc.array(fc.tuple(rowid, fc.option(fc.tuple(text, text))), { maxLength: 15 }),
        fc.array(fc.tuple(rowid, fc.option(fc.tuple(text, text))), { maxLength: 15 }),
        fc.array(fc.array(keyword, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        (built, before, after, searches, wordTrigrams) => {
          const index = new MemorySearchIndex(2, wordTrigrams, 6);
          const rows: ScanRows = new Map();
          built.forEach(([title, slug], i) => {
            // ScanRows spread over two groups; one odd row (a number) for SQL to check.
            const id = i < 20 ? i + 1 : 65_530 + i;
            const values = i === 3 ? [42, slug] : [title, slug];
            rows.set(id, values);
            index.set(id, values);
          });
          index.seal();
          applyWrites(index, rows, before);
          const read = roundTrip(index);
          expect(read.rows).toBe(index.rows);
          expect(read.complete).toBe(index.complete);
          const searched = searches.filter((keywords) => keywords.every(answerable));
          for (const keywords of searched) {
            const label = JSON.stringify(keywords);
            const written = index.search(keywords);
            const again = read.search(keywords);
            expect(again.hits.toArray(), label).toEqual(written.hits.toArray());
            expect(again.unsure, label).toEqual(written.unsure);
          }
          applyWrites(read, rows, after);
          expect(read.rows).toBe(rows.size);
          for (const keywords of searched) {
            expect(answer(read, rows, keywords), JSON.stringify(keywords)).toEqual(scan(rows, keywords));
          }
        },
      ),
      { numRuns: 200, seed: 17 },
    );
  });

  it("leaves the rows' text unread until a keyword needs it, and sends its candidates to SQL when it cannot be read", () => {
    const rows: ScanRows = new Map();
    const index = new MemorySearchIndex(2);
    for (let id = 1; id <= 3_000; id++) {
      const values = [`harbour ${['north', 'south'][id % 2]} ${id}`, `h-${id}`];
      rows.set(id, values);
      index.set(id, values);
    }
    index.seal();
    const buffer = written((out) => index.write(out));
    const fromFile = (fill: () => void) => {
      const file = unreadTail(buffer, fill);
      return { read: MemorySearchIndex.read(file.reader()), fills: file.fills };
    };
    const lazy = fromFile(() => {});
    // Words (and pieces of them) are answered by the vocabulary: the text stays unread.
    for (const keywords of [['harbour'], ['sout'], ['north', 'arb']]) {
      expect(answer(lazy.read, rows, keywords), keywords.join()).toEqual(scan(rows, keywords));
    }
    expect(lazy.fills()).toBe(0);
    // Digits and separators are confirmed against the text: read then, once.
    for (const keywords of [['27'], ['h 1'], ['-2']]) {
      expect(answer(lazy.read, rows, keywords), keywords.join()).toEqual(scan(rows, keywords));
    }
    expect(lazy.fills()).toBe(1);
    // A text that cannot be read: the candidates go to SQL (unsure), and the answers stay exact.
    const failing = fromFile(() => {
      throw new Error('gone');
    });
    const found = failing.read.search(['h 2']);
    expect(found.unsure.length).toBeGreaterThan(0);
    expect(answer(failing.read, rows, ['h 2'])).toEqual(scan(rows, ['h 2']));
    expect(scan(rows, ['h 2']).length).toBeGreaterThan(0);
    expect(() => written((out) => failing.read.write(out))).toThrow(/could not be read back/);
  });

  it('leaves the texts of rows written since the build in the file until they are wanted, and writes them again as they were', () => {
    const store = new TextStore();
    for (let rowid = 1; rowid <= 300; rowid++) store.appendFirst(rowid, `harbour ${rowid}`);
    // Rows written after the build keep their whole text beside the blocks; one row is gone.
    for (let rowid = 1; rowid <= 200; rowid++) store.setFull(rowid, `kestrel ${rowid} \ud800 k-${rowid}`);
    store.delete(250);
    const buffer = written((out) => store.write(out));
    const input = new SnapshotReader(buffer);
    const read = TextStore.read(input);
    expect(input.done).toBe(true);
    // Not decoded on reading: the texts count with the file's buffer, not as strings of the store.
    expect(read.bytes).toBe(201 * 64);
    // Written again (its blocks read for that), still without holding the texts.
    expect(Buffer.from(written((out) => read.write(out)))).toEqual(Buffer.from(buffer));
    const held = read.bytes;
    expect(read.full(7)).toBe('kestrel 7 \ud800 k-7');
    expect(read.full(250)).toBeNull();
    expect(read.full(260)).toBeNull();
    // Decoded when wanted, once: then it is a string the store holds.
    expect(read.bytes).toBe(held + 'kestrel 7 \ud800 k-7'.length * 2);
    const candidates = PostingBitmap.fromSorted([5, 12, 120, 250, 260]);
    const unsure: number[] = [];
    expect(read.confirm(candidates, 'k-12', unsure, null).toArray()).toEqual([12, 120]);
    expect(read.confirm(candidates, 'harbour 26', unsure, null).toArray()).toEqual([260]);
    expect(unsure).toEqual([]);
    expect(Buffer.from(written((out) => read.write(out)))).toEqual(Buffer.from(buffer));
  });

  it('keeps dense groups and several text blocks, and they take writes after loading', () => {
    const rows: ScanRows = new Map();
    const index = new MemorySearchIndex(2);
    const words = ['alpha', 'bravo', 'über', 'café', 'delta'];
    for (let id = 1; id <= 140_000; id += 7) {
      const values = [`${words[id % 5]} ${words[(id * 3) % 5]} ${id % 100}`, `${words[id % 5]}-${id}`];
      rows.set(id, values);
      index.set(id, values);
    }
    index.seal();
    const read = roundTrip(index);
    for (const keywords of [['alpha'], ['a'], ['ta b'], ['fé del'], ['-1'], ['o 4', 'bra']]) {
      expect(answer(read, rows, keywords), keywords.join()).toEqual(scan(rows, keywords));
    }
    for (let id = 8; id <= 140_000; id += 700) {
      read.delete(id);
      rows.delete(id);
      const values = [`zulu ${id}`, 'zulu'];
      read.set(id + 1, values);
      rows.set(id + 1, values);
    }
    for (const keywords of [['alpha'], ['a'], ['zulu'], ['lu 1'], ['ta b']]) {
      expect(answer(read, rows, keywords), keywords.join()).toEqual(scan(rows, keywords));
    }
  });
});
