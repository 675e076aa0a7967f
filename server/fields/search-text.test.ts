import { describe, expect, it } from 'vitest';
import { blocksColumn, blockType, fieldColumn, groupOfQuotes } from '../test-support/block-columns.js';
import { fieldFor } from './field-registry.js';
import { richtextText } from './richtext-text.js';

/** The text a search finds in a value, as each field type derives it (`FieldType.searchText`). */

const SECTIONS = blocksColumn('sections', 'Sections', [
  blockType('hero', 'Hero', [
    fieldColumn('title', 'Title', 'text'),
    fieldColumn('image', 'Image', 'image'),
    fieldColumn('kind', 'Kind', 'select', {
      options: [
        { id: 'wide', text: 'Wide' },
        { id: 'narrow', text: 'Narrow' },
      ],
    }),
  ]),
  blockType('text', 'Text', [fieldColumn('body', 'Body', 'richtext'), fieldColumn('notes', 'Notes', 'markdown')]),
  groupOfQuotes('textarea'),
]);

describe('rich text', () => {
  it('reads the text without tags, attributes or comments, entities decoded', () => {
    const html =
      '<h2 class="x">Tea &amp; cake</h2><p>A <strong>bold</strong> <a href="https://strongly.example/path">link</a>' +
      '<!-- hidden --> here&nbsp;now &lt;b&gt;</p><img src="/media/a.png" alt="sunset">';
    expect(richtextText(html)).toBe('Tea & cake\nA bold link here now <b>');
  });

  it('keeps the words of neighbouring blocks apart and inline formatting joined', () => {
    expect(richtextText('<p>one</p><p>two</p><ul><li>th<em>re</em>e</li><li>four</li></ul>')).toBe(
      'one\ntwo\nthree\nfour',
    );
    expect(richtextText('<p>line<br>break</p>')).toBe('line\nbreak');
    expect(richtextText('<p>written\n   over  two\tlines</p>')).toBe('written over two lines');
  });

  it('is the richtext field type search text, none for an empty body', () => {
    const column = fieldColumn('body', 'Body', 'richtext');
    const field = fieldFor('richtext');
    expect(field.searchText?.('<p>Hello <b>world</b></p>', column)).toBe('Hello world');
    expect(field.searchText?.('<p> </p><hr>', column)).toBeNull();
    expect(field.searchText?.(null, column)).toBeNull();
  });
});

describe('blocks', () => {
  it('reads the text fields of every block at any depth, not images, options, types or ids', () => {
    const value = [
      { type: 'hero', id: 'h1', title: 'Welcome aboard', image: '/media/hero.png', kind: 'wide' },
      { type: 'text', id: 't1', body: '<p>Rich <em>words</em></p>', notes: 'Some *markdown*' },
      { type: 'group', id: 'g1', items: [{ type: 'quote', id: 'q1', said: 'Deep saying' }] },
      { type: 'gone', id: 'x1', title: 'A block type the column no longer has' },
    ];
    const text = fieldFor('blocks').searchText?.(JSON.stringify(value), SECTIONS);
    expect(text).toBe('Welcome aboard\nRich words\nSome *markdown*\nDeep saying');
  });

  it('has no text for no blocks or blocks without text', () => {
    const field = fieldFor('blocks');
    expect(field.searchText?.(null, SECTIONS)).toBeNull();
    expect(field.searchText?.(JSON.stringify([{ type: 'hero', id: 'h', image: '/media/a.png' }]), SECTIONS)).toBeNull();
  });

  it('is left out by types without words to search', () => {
    for (const type of ['number', 'boolean', 'date', 'datetime', 'image', 'relation', 'select', 'tags'] as const) {
      expect(fieldFor(type).searchText, type).toBeUndefined();
    }
  });
});
