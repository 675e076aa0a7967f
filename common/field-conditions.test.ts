import { describe, expect, it } from 'vitest';
import {
  type ConditionalColumn,
  conditionHolds,
  conditionProblem,
  conditionTargets,
  readCondition,
  shownColumns,
} from './field-conditions.js';

const kind: ConditionalColumn = {
  name: 'kind',
  type: 'select',
  options: [{ id: 'video' }, { id: 'text' }],
};
const videoUrl: ConditionalColumn = { name: 'video_url', type: 'text', when: { field: 'kind', is: ['video'] } };

describe('readCondition', () => {
  it('reads each operator and keeps nothing else', () => {
    expect(readCondition({ field: 'kind', is: ['video'] })).toEqual({ field: 'kind', is: ['video'] });
    expect(readCondition({ field: 'kind', isNot: ['video', 3, true] })).toEqual({
      field: 'kind',
      isNot: ['video', 3, true],
    });
    expect(readCondition({ field: 'kind', empty: true })).toEqual({ field: 'kind', empty: true });
    expect(readCondition({ field: 'kind', notEmpty: true })).toEqual({ field: 'kind', notEmpty: true });
  });

  it('refuses other shapes', () => {
    for (const raw of [
      null,
      'kind',
      [],
      {},
      { field: 'kind' },
      { field: '', is: ['a'] },
      { field: 'kind', is: [] },
      { field: 'kind', is: 'video' },
      { field: 'kind', is: ['a', 'a'] },
      { field: 'kind', is: [null] },
      { field: 'kind', is: [{}] },
      { field: 'kind', is: [''] },
      { field: 'kind', is: ['a\u0000'] },
      { field: 'kind', is: [Number.NaN] },
      { field: 'kind', is: Array.from({ length: 101 }, (_, index) => `v${index}`) },
      { field: 'kind', empty: false },
      { field: 'kind', notEmpty: 'yes' },
      { field: 'kind', is: ['a'], empty: true },
      { field: 'kind', is: ['a'], extra: 1 },
      { field: 3, empty: true },
    ]) {
      expect(readCondition(raw), JSON.stringify(raw)).toBeNull();
    }
  });
});

describe('conditionProblem', () => {
  it('accepts a condition on an existing field with fitting values', () => {
    expect(conditionProblem(videoUrl, [kind, videoUrl])).toBeNull();
    expect(conditionProblem(kind, [kind, videoUrl])).toBeNull();
    const flag: ConditionalColumn = { name: 'flag', type: 'boolean' };
    const count: ConditionalColumn = { name: 'count', type: 'number' };
    const tags: ConditionalColumn = { name: 'tags', type: 'tags' };
    const all = [flag, count, tags];
    expect(conditionProblem({ name: 'x', type: 'text', when: { field: 'flag', is: [true] } }, all)).toBeNull();
    expect(conditionProblem({ name: 'x', type: 'text', when: { field: 'count', isNot: [0, 1.5] } }, all)).toBeNull();
    expect(conditionProblem({ name: 'x', type: 'text', when: { field: 'tags', is: ['news'] } }, all)).toBeNull();
  });

  it('refuses an unknown field, itself and a cycle', () => {
    expect(conditionProblem({ ...videoUrl, when: { field: 'nope', empty: true } }, [kind, videoUrl])).toEqual({
      code: 'condition_unknown_field',
      field: 'nope',
    });
    const self = { ...videoUrl, when: { field: 'video_url', empty: true } } as const;
    expect(conditionProblem(self, [kind, self])).toEqual({ code: 'condition_cycle', columns: ['video_url'] });
    const a: ConditionalColumn = { name: 'a', type: 'text', when: { field: 'b', empty: true } };
    const b: ConditionalColumn = { name: 'b', type: 'text', when: { field: 'a', notEmpty: true } };
    expect(conditionProblem(a, [a, b])).toEqual({ code: 'condition_cycle', columns: ['a', 'b'] });
  });

  it('accepts a chain without a cycle', () => {
    const source: ConditionalColumn = { name: 'source', type: 'text', when: { field: 'kind', is: ['video'] } };
    const id: ConditionalColumn = { name: 'id', type: 'text', when: { field: 'source', notEmpty: true } };
    expect(conditionProblem(id, [kind, source, id])).toBeNull();
  });

  it('refuses values the field cannot hold', () => {
    expect(conditionProblem({ ...videoUrl, when: { field: 'kind', is: ['movie'] } }, [kind, videoUrl])).toEqual({
      code: 'condition_value',
      field: 'kind',
      value: '"movie"',
    });
    const flag: ConditionalColumn = { name: 'flag', type: 'boolean' };
    expect(conditionProblem({ name: 'x', type: 'text', when: { field: 'flag', is: ['true'] } }, [flag])).toEqual({
      code: 'condition_value',
      field: 'flag',
      value: '"true"',
    });
    const body: ConditionalColumn = { name: 'body', type: 'markdown' };
    expect(conditionProblem({ name: 'x', type: 'text', when: { field: 'body', is: ['a'] } }, [body])).toEqual({
      code: 'condition_empty_only',
      field: 'body',
    });
    expect(conditionProblem({ name: 'x', type: 'text', when: { field: 'body', empty: true } }, [body])).toBeNull();
  });
});

describe('conditionHolds', () => {
  it('compares values as rows, writes and forms carry them', () => {
    expect(conditionHolds({ field: 'k', is: ['video'] }, 'video')).toBe(true);
    expect(conditionHolds({ field: 'k', is: ['video'] }, 'text')).toBe(false);
    expect(conditionHolds({ field: 'k', is: ['video'] }, null)).toBe(false);
    expect(conditionHolds({ field: 'k', isNot: ['video'] }, null)).toBe(true);
    expect(conditionHolds({ field: 'k', isNot: ['video'] }, 'video')).toBe(false);
    expect(conditionHolds({ field: 'k', is: [3] }, 3)).toBe(true);
    expect(conditionHolds({ field: 'k', is: [3] }, '3.0')).toBe(true);
    expect(conditionHolds({ field: 'k', is: [3] }, '')).toBe(false);
    expect(conditionHolds({ field: 'k', is: [true] }, true)).toBe(true);
    expect(conditionHolds({ field: 'k', is: [true] }, false)).toBe(false);
    expect(conditionHolds({ field: 'k', is: [false] }, 'false')).toBe(true);
    expect(conditionHolds({ field: 'k', is: ['news'] }, ['a', 'news'])).toBe(true);
    expect(conditionHolds({ field: 'k', isNot: ['news'] }, ['a', 'news'])).toBe(false);
    expect(conditionHolds({ field: 'k', is: ['r1'] }, { id: 'r1', title: null, slug: null })).toBe(true);
  });

  it('tells empty from not empty', () => {
    for (const empty of [null, undefined, '', '  ', []]) {
      expect(conditionHolds({ field: 'k', empty: true }, empty)).toBe(true);
      expect(conditionHolds({ field: 'k', notEmpty: true }, empty)).toBe(false);
    }
    for (const filled of ['a', 0, false, ['a'], { id: 'x' }]) {
      expect(conditionHolds({ field: 'k', empty: true }, filled)).toBe(false);
      expect(conditionHolds({ field: 'k', notEmpty: true }, filled)).toBe(true);
    }
  });
});

describe('shownColumns', () => {
  const source: ConditionalColumn = { name: 'source', type: 'text', when: { field: 'kind', is: ['video'] } };
  const id: ConditionalColumn = { name: 'id', type: 'text', when: { field: 'source', notEmpty: true } };
  const columns = [kind, source, id];

  it('shows a column while its condition holds, and hides chains together', () => {
    const values: Record<string, unknown> = { kind: 'video', source: 'youtube' };
    expect([...shownColumns(columns, (name) => values[name])]).toEqual(['kind', 'source', 'id']);
    values.kind = 'text';
    expect([...shownColumns(columns, (name) => values[name])]).toEqual(['kind']);
  });

  it('hides a column whose condition cannot be decided', () => {
    const odd: ConditionalColumn[] = [
      { name: 'a', type: 'text', when: { field: 'b', empty: true } },
      { name: 'b', type: 'text', when: { field: 'a', empty: true } },
      { name: 'c', type: 'text', when: { field: 'gone', empty: true } },
    ];
    expect([...shownColumns(odd, () => null)]).toEqual([]);
  });
});

describe('conditionTargets', () => {
  it('offers the other columns that do not depend on the column', () => {
    const source: ConditionalColumn = { name: 'source', type: 'text', when: { field: 'kind', is: ['video'] } };
    expect(conditionTargets(kind, [kind, source]).map((column) => column.name)).toEqual([]);
    expect(conditionTargets(source, [kind, source]).map((column) => column.name)).toEqual(['kind']);
  });
});
