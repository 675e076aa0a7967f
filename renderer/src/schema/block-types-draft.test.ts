import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { typeOf } from '../test-support/fake-api.js';
import {
  addField,
  type BlockTypeDraft,
  changeBlockType,
  changeField,
  columnChanges,
  draftFromType,
  newBlockType,
  newField,
} from './type-draft.js';

const SECTIONS: ColumnDescriptor = {
  name: 'sections',
  label: 'Sections',
  type: 'blocks',
  required: false,
  blocks: [
    {
      name: 'hero',
      label: 'Hero',
      columns: [{ name: 'heading', label: 'Heading', type: 'text', required: true }],
    },
  ],
};

const PAGES = typeOf('pages', [{ name: 'title', label: 'Title', type: 'text', required: true }, SECTIONS], {
  title: 'Pages',
});

describe('block types in the type editor', () => {
  it('reads a blocks column into block type drafts and sends it back as it was', () => {
    const draft = draftFromType(PAGES);
    const sections = draft.fields[1];
    expect(sections.blocks.map((block) => [block.name, block.label, block.fields.map((f) => f.name)])).toEqual([
      ['hero', 'Hero', ['heading']],
    ]);
    expect(columnChanges(draft)[1]).toEqual(SECTIONS);
  });

  it('gives a field that becomes blocks one block type, whose name follows its label', () => {
    let draft = addField(draftFromType(PAGES), newField('text', 'Body'));
    const key = draft.fields[2].key;
    draft = changeField(draft, key, { type: 'blocks' });
    expect(draft.fields[2].blocks).toHaveLength(1);
    const blockKey = draft.fields[2].blocks[0].key;
    const blocks = changeBlockType(draft.fields[2].blocks, blockKey, { label: 'Call to action' });
    expect(blocks[0].name).toBe('call_to_action');
    const renamed = changeBlockType(blocks, blockKey, { name: 'cta' });
    expect(changeBlockType(renamed, blockKey, { label: 'Button' })[0].name).toBe('cta');
  });

  it('names a second block type uniquely, and edits a block type’s fields like a type’s', () => {
    const draft = draftFromType(PAGES);
    const hero = draft.fields[1].blocks[0];
    const second = newBlockType();
    const blocks: BlockTypeDraft[] = changeBlockType([hero, second], second.key, { label: 'Hero' });
    expect(blocks[1].name).toBe('hero_2');
    // A block type's fields take the same operations as a type's: a rename sends `from`.
    const fields = changeField({ fields: hero.fields }, hero.fields[0].key, { name: 'headline' }).fields;
    const next = {
      ...draft,
      fields: draft.fields.map((f, i) => (i === 1 ? { ...f, blocks: [{ ...hero, fields }] } : f)),
    };
    expect(columnChanges(next)[1].blocks?.[0].columns[0]).toMatchObject({ name: 'headline', from: 'heading' });
  });
});
