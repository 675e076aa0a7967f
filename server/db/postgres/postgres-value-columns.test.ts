import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingBitmap } from '../../search/search-posting-bitmap.js';
import { SnapshotReader } from '../../search/search-snapshot-codec.js';
import { written } from '../../test-support/snapshot-bytes.js';
import type { MemoryCondition } from '../engine.js';
import { ValueColumns } from './postgres-value-columns.js';

/** What SQL keeps for a condition (filter-conditions.ts `conditionSql`): the model. */
function sqlKeeps(condition: MemoryCondition, value: string | null): boolean {
  const op = condition.op ?? 'eq';
  const wanted = condition.value;
  if (wanted === null) return op === 'ne' ? value !== null : value === null;
  if (op === 'eq') return value === wanted;
  if (op === 'ne') return value === null || value !== wanted;
  return value !== null && (wanted as string[]).includes(value);
}

const VALUES = ['draft', 'published', 'archived', 'Draft', 'dráft', ''];
const value = fc.option(fc.constantFrom(...VALUES), { nil: null });
const condition = (column: string) =>
  fc.oneof(
    fc.record({ column: fc.constant(column), op: fc.constantFrom('eq', 'ne'), value }),
    fc.record({
      column: fc.constant(column),
      op: fc.constant('in'),
      value: fc.array(fc.constantFrom(...VALUES, 'never'), { minLength: 1, maxLength: 3 }),
    }),
  );

describe('ValueColumns', () => {
  it('keeps the rows SQL keeps, after rewrites, and written and read back', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 3000 }), value, value), { maxLength: 300 }),
        fc.array(fc.oneof(condition('status'), condition('kind')), { maxLength: 3 }),
        fc.boolean(),
        (writes, conditions, reload) => {
          const kept = new ValueColumns(['status', 'kind']);
          const model = new Map<number, [string | null, string | null]>();
          for (const [n, status, kind] of writes) {
            kept.set(n, [status, kind]);
            model.set(n, [status, kind]);
          }
          const columns = reload ? ValueColumns.read(new SnapshotReader(written((out) => kept.write(out)))) : kept;
          const rows = PostingBitmap.fromSorted([...model.keys()].sort((x, y) => x - y));
          const expected = [...model.entries()]
            .filter(([, values]) => conditions.every((one) => sqlKeeps(one, values[one.column === 'status' ? 0 : 1])))
            .map(([n]) => n)
            .sort((x, y) => x - y);
          expect(columns.filter(rows, conditions)?.toArray()).toEqual(expected);
        },
      ),
    );
  });

  it('grows its codes past 255 and 65,535 values, and leaves the rest to SQL', () => {
    const kept = new ValueColumns(['tag']);
    for (let n = 0; n < 70_000; n++) kept.set(n, [`v${n}`]);
    kept.set(70_000, [null]);
    const rows = PostingBitmap.fromSorted(Array.from({ length: 70_001 }, (_, n) => n));
    expect(kept.filter(rows, [{ column: 'tag', value: 'v69999' }])?.toArray()).toEqual([69_999]);
    expect(kept.filter(rows, [{ column: 'tag', value: 'v7' }])?.toArray()).toEqual([7]);
    expect(kept.filter(rows, [{ column: 'tag', op: 'ne', value: null }])?.size).toBe(70_000);
    expect(kept.filter(rows, [{ column: 'tag', op: 'eq', value: null }])?.toArray()).toEqual([70_000]);
    // Ordered comparisons, numbers, relations through other tables, JSON arrays, other columns.
    expect(kept.filter(rows, [{ column: 'tag', op: 'lt', value: 'v5' }])).toBeNull();
    expect(kept.filter(rows, [{ column: 'tag', value: 5 }])).toBeNull();
    expect(kept.filter(rows, [{ column: 'tag', value: 'v5', through: { table: 't', column: 'slug' } }])).toBeNull();
    expect(kept.filter(rows, [{ column: 'tag', value: 'v5', match: 'contains' }])).toBeNull();
    expect(kept.filter(rows, [{ column: 'other', value: 'v5' }])).toBeNull();
  });

  it('tallies the rows held and those meeting one condition as filter counts them, through sets and deletes', () => {
    const write = fc.oneof(
      fc.tuple(fc.constant('set' as const), fc.integer({ min: 0, max: 60 }), value, value),
      fc.tuple(fc.constant('delete' as const), fc.integer({ min: 0, max: 60 })),
    );
    fc.assert(
      fc.property(
        fc.array(write, { maxLength: 200 }),
        fc.array(write, { maxLength: 200 }),
        fc.array(fc.oneof(condition('status'), condition('kind')), { maxLength: 1 }),
        fc.boolean(),
        (before, after, conditions, reload) => {
          const model = new Map<number, [string | null, string | null]>();
          const apply = (columns: ValueColumns, writes: typeof before) => {
            for (const [kind, n, status, other] of writes) {
              if (kind === 'set') {
                columns.set(n, [status ?? null, other ?? null]);
                model.set(n, [status ?? null, other ?? null]);
              } else {
                columns.delete(n);
                model.delete(n);
              }
            }
          };
          const held = () => PostingBitmap.fromSorted([...model.keys()].sort((x, y) => x - y));
          let kept = new ValueColumns(['status', 'kind']);
          apply(kept, before);
          if (reload) kept = ValueColumns.read(new SnapshotReader(written((out) => kept.write(out))));
          // The first tally counts from the rows held; the writes after it are followed.
          expect(kept.tally([], held)).toEqual({ total: model.size, filtered: model.size });
          apply(kept, after);
          const rows = held();
          const tallied = kept.tally(conditions, () => {
            throw new Error('the tallies were started already');
          });
          expect(tallied).toEqual({ total: rows.size, filtered: kept.filter(rows, conditions)?.size });
        },
      ),
    );
  });

  it('leaves to SQL what one tally cannot count', () => {
    const kept = new ValueColumns(['status']);
    kept.set(1, ['draft']);
    const held = () => PostingBitmap.fromSorted([1]);
    expect(kept.tally([{ column: 'status', value: 'draft' }], held)).toEqual({ total: 1, filtered: 1 });
    expect(
      kept.tally(
        [
          { column: 'status', value: 'draft' },
          { column: 'status', op: 'ne', value: null },
        ],
        held,
      ),
    ).toBeNull();
    expect(kept.tally([{ column: 'status', op: 'lt', value: 'e' }], held)).toBeNull();
    expect(kept.tally([{ column: 'other', value: 'draft' }], held)).toBeNull();
  });
});
