import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../contract/api-contract.js';
import { COLUMN_TYPES, fieldFor, isColumnType } from './field-registry.js';

const status: ColumnDescriptor = {
  name: 'status',
  label: 'Status',
  type: 'select',
  required: true,
  options: [
    { id: 'draft', text: 'Draft' },
    { id: 'published', text: 'Published' },
  ],
};
const title: ColumnDescriptor = { name: 'title', label: 'Title', type: 'text', required: true };
const slug: ColumnDescriptor = { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' };
const when: ColumnDescriptor = { name: 'published_at', label: 'Published at', type: 'datetime', required: true };

describe('field registry', () => {
  it('knows the four spec column types', () => {
    expect(COLUMN_TYPES.sort()).toEqual(['datetime', 'select', 'slug', 'text']);
    expect(isColumnType('text')).toBe(true);
    expect(isColumnType('toString')).toBe(false);
  });
});

describe('every field', () => {
  it.each(COLUMN_TYPES)('%s treats absent and empty values as null', (type) => {
    const column = { text: title, slug, select: status, datetime: when }[type];
    expect(fieldFor(type).parse(undefined, column)).toEqual({ ok: true, value: null });
    expect(fieldFor(type).parse('', column)).toEqual({ ok: true, value: null });
  });

  it.each(COLUMN_TYPES)('%s refuses a value sent twice', (type) => {
    const column = { text: title, slug, select: status, datetime: when }[type];
    expect(fieldFor(type).parse(['a', 'b'], column)).toEqual({ ok: false, problem: 'was sent more than once' });
  });
});

describe('text field', () => {
  it('stores text verbatim, SQL included', () => {
    const text = "Robert'); DROP TABLE news;--";
    expect(fieldFor('text').parse(text, title)).toEqual({ ok: true, value: text });
  });
  it('refuses NUL characters', () => {
    expect(fieldFor('text').parse('a\u0000b', title).ok).toBe(false);
  });
});

describe('select field', () => {
  it('accepts an option id', () => {
    expect(fieldFor('select').parse('draft', status)).toEqual({ ok: true, value: 'draft' });
  });
  it('refuses a value that is not an option id, listing the choices', () => {
    expect(fieldFor('select').parse('Draft', status)).toEqual({
      ok: false,
      problem: 'must be one of draft, published',
    });
  });
  it('requires options in its descriptor', () => {
    expect(fieldFor('select').checkDescriptor({ ...status, options: [] }, [status])).not.toEqual([]);
  });
});

describe('slug field', () => {
  it('normalises a given slug', () => {
    expect(fieldFor('slug').parse('Über Café', slug)).toEqual({ ok: true, value: 'uber-cafe' });
  });
  it('refuses a slug with no letters or digits', () => {
    expect(fieldFor('slug').parse('!!!', slug).ok).toBe(false);
  });
  it('needs a parent column that exists', () => {
    expect(fieldFor('slug').checkDescriptor(slug, [title, slug])).toEqual([]);
    expect(fieldFor('slug').checkDescriptor({ ...slug, parent: 'nope' }, [title, slug])).not.toEqual([]);
  });
});

describe('datetime field', () => {
  it('normalises browser date-time input', () => {
    expect(fieldFor('datetime').parse('2025-01-02T03:04', when)).toEqual({ ok: true, value: '2025-01-02 03:04:00' });
  });
  it('refuses an impossible date', () => {
    expect(fieldFor('datetime').parse('2025-02-30 10:00:00', when).ok).toBe(false);
  });
});
