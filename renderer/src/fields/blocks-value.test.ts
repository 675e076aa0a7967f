import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import {
  type BlockForm,
  blocksFromRow,
  blocksToBody,
  duplicateBlock,
  moveBlock,
  newBlock,
  removeBlock,
  restoreBlock,
} from './blocks-value.js';
import { widgetFor } from './field-registry.js';
import { firstStep, problemsOf } from './problem-paths.js';

const SECTIONS: ColumnDescriptor = {
  name: 'sections',
  label: 'Sections',
  type: 'blocks',
  required: false,
  blocks: [
    {
      name: 'hero',
      label: 'Hero',
      columns: [
        { name: 'title', label: 'Title', type: 'text', required: true },
        { name: 'wide', label: 'Wide', type: 'boolean', required: false },
      ],
    },
    {
      name: 'gallery',
      label: 'Gallery',
      columns: [
        {
          name: 'images',
          label: 'Images',
          type: 'blocks',
          required: false,
          blocks: [
            {
              name: 'picture',
              label: 'Picture',
              columns: [{ name: 'alt', label: 'Alt', type: 'text', required: false }],
            },
          ],
        },
      ],
    },
  ],
};

const block = (id: string, title = id): BlockForm => ({ type: 'hero', id, values: { title, wide: false } });
const ids = (blocks: readonly BlockForm[]) => blocks.map((item) => item.id);

describe('blocks as form values', () => {
  it('reads a row value into blocks and writes the same value back, nested blocks included', () => {
    const value = [
      { type: 'hero', id: 'h1', title: 'Welcome', wide: true },
      { type: 'gallery', id: 'g1', images: [{ type: 'picture', id: 'p1', alt: 'A cat' }] },
    ];
    const blocks = blocksFromRow(value, SECTIONS, widgetFor);
    expect(blocks[0]).toEqual({ type: 'hero', id: 'h1', values: { title: 'Welcome', wide: true } });
    expect(blocksToBody(blocks, SECTIONS, widgetFor)).toEqual(value);
  });

  it('keeps a block of a type the column no longer offers as it came', () => {
    const value = [{ type: 'quote', id: 'q1', text: 'Hi', author: 'Ann' }];
    const blocks = blocksFromRow(value, SECTIONS, widgetFor);
    expect(blocksToBody(blocks, SECTIONS, widgetFor)).toEqual(value);
  });

  it('leaves empty fields out, and writes no blocks as null', () => {
    const fresh = newBlock(SECTIONS.blocks?.[0] ?? { name: '', label: '', columns: [] }, new Date(), widgetFor);
    expect(fresh.values).toEqual({ title: '', wide: false });
    expect(blocksToBody([fresh], SECTIONS, widgetFor)).toEqual([{ type: 'hero', id: fresh.id, wide: false }]);
    expect(blocksToBody([], SECTIONS, widgetFor)).toBeNull();
    expect(blocksFromRow(null, SECTIONS, widgetFor)).toEqual([]);
    expect(blocksFromRow('nope', SECTIONS, widgetFor)).toEqual([]);
  });
});

describe('reordering, duplicating and removing blocks', () => {
  const three = [block('a'), block('b'), block('c')];

  it('moves a block up, down, to either end, and not past the ends', () => {
    expect(ids(moveBlock(three, 0, 1))).toEqual(['b', 'a', 'c']);
    expect(ids(moveBlock(three, 2, 1))).toEqual(['a', 'c', 'b']);
    expect(ids(moveBlock(three, 2, 0))).toEqual(['c', 'a', 'b']);
    expect(ids(moveBlock(three, 0, 9))).toEqual(['b', 'c', 'a']);
    expect(ids(moveBlock(three, 0, -1))).toEqual(['a', 'b', 'c']);
    expect(ids(moveBlock(three, 5, 0))).toEqual(['a', 'b', 'c']);
    expect(ids(three)).toEqual(['a', 'b', 'c']);
  });

  it('puts a copy right after the block, with new ids for it and the blocks nested in it', () => {
    const gallery: BlockForm = {
      type: 'gallery',
      id: 'g',
      values: { images: [{ type: 'picture', id: 'p', values: { alt: 'A cat' } }] },
    };
    const next = duplicateBlock([block('a'), gallery, block('c')], 1);
    expect(next.map((item) => item.type)).toEqual(['hero', 'gallery', 'gallery', 'hero']);
    const copy = next[2];
    expect(copy.id).not.toBe('g');
    const inner = (copy.values.images as BlockForm[])[0];
    expect(inner.values).toEqual({ alt: 'A cat' });
    expect(inner.id).not.toBe('p');
    // The copy is its own: changing it leaves the original as it was.
    inner.values.alt = 'A dog';
    expect((gallery.values.images as BlockForm[])[0].values.alt).toBe('A cat');
    expect(new Set(ids(next)).size).toBe(4);
  });

  it('removes a block and Undo puts it back where it stood, once', () => {
    const { blocks, removed } = removeBlock(three, 1);
    expect(ids(blocks)).toEqual(['a', 'c']);
    expect(removed?.index).toBe(1);
    if (!removed) throw new Error('nothing removed');
    const back = restoreBlock(blocks, removed);
    expect(ids(back)).toEqual(['a', 'b', 'c']);
    expect(back[1]).toBe(three[1]);
    expect(ids(restoreBlock(back, removed))).toEqual(['a', 'b', 'c']);
    // The list shrank meanwhile: the block comes back at its end.
    expect(ids(restoreBlock([block('a')], { block: three[2], index: 2 }))).toEqual(['a', 'c']);
    expect(removeBlock(three, 7).removed).toBeNull();
  });
});

describe('problems inside blocks', () => {
  it('splits paths at their first step', () => {
    expect(firstStep('[2].image')).toEqual({ step: '[2]', rest: 'image' });
    expect(firstStep('gallery[0].alt')).toEqual({ step: 'gallery', rest: '[0].alt' });
    expect(firstStep('title')).toEqual({ step: 'title', rest: '' });
  });

  it('hands each block and field the problems under it', () => {
    const problems = { '[2].image': 'must be an upload', '[2]': 'is not a block', '[0].gallery[1].alt': 'is required' };
    expect(problemsOf(problems, '[2]')).toEqual({ own: 'is not a block', inside: { image: 'must be an upload' } });
    const first = problemsOf(problems, '[0]');
    expect(problemsOf(first.inside, 'gallery')).toEqual({ inside: { '[1].alt': 'is required' } });
    expect(problemsOf(problems, '[1]')).toEqual({ inside: {} });
    expect(problemsOf({ title2: 'x' }, 'title')).toEqual({ inside: {} });
  });
});
