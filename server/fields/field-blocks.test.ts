import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { renameInStoredBlocks } from '../content/block-changes.js';
import { blocksOf, textColumn } from '../test-support/block-columns.js';
import { fieldFor } from './field-registry.js';

const blocks = fieldFor('blocks');

describe('blocks descriptors as a registry record holds them', () => {
  it('accepts three levels and refuses a fourth', () => {
    expect(blocks.checkDescriptor(blocksOf([blocksOf([blocksOf([textColumn('t')])])]), [])).toBeNull();
    expect(blocks.checkDescriptor(blocksOf([blocksOf([blocksOf([blocksOf([textColumn('t')])])])]), [])).toEqual({
      code: 'too_deep',
      max: 3,
    });
  });

  it.each([
    ['a name every object has', { name: 'x', label: 'X', type: 'toString', required: false }],
    ['a slug', { name: 's', label: 'S', type: 'slug', required: false, parent: 't' }],
  ])('refuses a block column type that is %s', (_what, column) => {
    expect(blocks.checkDescriptor(blocksOf([textColumn('t'), column as ColumnDescriptor]), [])).toEqual({
      code: 'unknown_column_type',
    });
  });

  it('refuses block columns named twice or named like a block member', () => {
    expect(blocks.checkDescriptor(blocksOf([textColumn('a'), textColumn('a')]), [])).toEqual({
      code: 'listed_twice',
      column: 'a',
    });
    expect(blocks.checkDescriptor(blocksOf([textColumn('id')]), [])).toEqual({ code: 'reserved', name: 'id' });
  });
});

describe('blocks values', () => {
  const column = blocksOf([textColumn('title', true)], 'card');

  it('gives each block without an id a distinct one, and reads a form’s JSON text', () => {
    const parsed = blocks.parse(
      JSON.stringify([
        { type: 'card', title: 'a' },
        { type: 'card', title: 'b' },
      ]),
      column,
    );
    expect(parsed.ok).toBe(true);
    const value = (parsed as { value: { id: string }[] }).value;
    expect(new Set(value.map((block) => block.id)).size).toBe(2);
  });

  it('reads back only the columns of the block type, through their fields', () => {
    const stored = JSON.stringify([
      { type: 'card', id: 'c1', title: 'x', gone: 1 },
      { type: 'old', id: 'o' },
    ]);
    expect(blocks.serialize(stored, column)).toEqual([{ type: 'card', id: 'c1', title: 'x' }]);
    expect(blocks.serialize('not json', column)).toBeNull();
  });
});

describe('renamed block columns in stored values', () => {
  it('moves a value to its new name only in blocks of its type at its place', () => {
    const stored = JSON.stringify([
      { type: 'hero', id: 'h', cta: 'Go' },
      { type: 'text', id: 't', cta: 'kept' },
      { type: 'gallery', id: 'g', items: [{ type: 'photo', id: 'p', cap: 'one' }] },
    ]);
    const renamed = renameInStoredBlocks(stored, [
      { path: ['hero'], from: 'cta', to: 'button' },
      { path: ['gallery', 'items', 'photo'], from: 'cap', to: 'caption' },
    ]);
    expect(JSON.parse(renamed as string)).toEqual([
      { type: 'hero', id: 'h', button: 'Go' },
      { type: 'text', id: 't', cta: 'kept' },
      { type: 'gallery', id: 'g', items: [{ type: 'photo', id: 'p', caption: 'one' }] },
    ]);
    expect(renameInStoredBlocks(stored, [{ path: ['quote'], from: 'a', to: 'b' }])).toBeNull();
  });
});
