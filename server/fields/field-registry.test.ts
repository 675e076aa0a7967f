import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor, ColumnType } from '../../common/api-contract.js';
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

/** One descriptor of every column type. */
const SAMPLES: Record<ColumnType, ColumnDescriptor> = {
  text: title,
  slug,
  select: status,
  datetime: when,
  textarea: { name: 'description', label: 'Description', type: 'textarea', required: false },
  markdown: { name: 'body', label: 'Body', type: 'markdown', required: false },
  richtext: { name: 'content', label: 'Content', type: 'richtext', required: false },
  number: { name: 'position', label: 'Position', type: 'number', required: false },
  boolean: { name: 'featured', label: 'Featured', type: 'boolean', required: false },
  date: { name: 'day', label: 'Day', type: 'date', required: false },
  image: { name: 'image', label: 'Image', type: 'image', required: false },
  tags: { name: 'tags', label: 'Tags', type: 'tags', required: false },
  relation: { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
  blocks: {
    name: 'sections',
    label: 'Sections',
    type: 'blocks',
    required: false,
    blocks: [
      { name: 'text', label: 'Text', columns: [{ name: 'body', label: 'Body', type: 'markdown', required: false }] },
    ],
  },
};

describe('field registry', () => {
  it('knows the spec column types and the richer ones', () => {
    expect([...COLUMN_TYPES].sort()).toEqual([
      'blocks',
      'boolean',
      'date',
      'datetime',
      'image',
      'markdown',
      'number',
      'relation',
      'richtext',
      'select',
      'slug',
      'tags',
      'text',
      'textarea',
    ]);
    expect(isColumnType('text')).toBe(true);
    expect(isColumnType('toString')).toBe(false);
  });
});

describe('every field', () => {
  it.each(COLUMN_TYPES.filter((type) => type !== 'tags'))('%s treats absent and empty values as null', (type) => {
    expect(fieldFor(type).parse(undefined, SAMPLES[type])).toEqual({ ok: true, value: null });
    expect(fieldFor(type).parse('', SAMPLES[type])).toEqual({ ok: true, value: null });
  });

  // A list is what tags and blocks take.
  it.each(COLUMN_TYPES.filter((type) => type !== 'tags' && type !== 'blocks'))(
    '%s refuses a value sent twice',
    (type) => {
      expect(fieldFor(type).parse(['a', 'b'], SAMPLES[type])).toEqual({ ok: false, problem: { code: 'repeated' } });
    },
  );

  it.each(COLUMN_TYPES)('%s accepts its own sample descriptor', (type) => {
    expect(fieldFor(type).checkDescriptor(SAMPLES[type], [title, SAMPLES[type]])).toBeNull();
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
      problem: { code: 'not_an_option', options: ['draft', 'published'] },
    });
  });
  it('requires options in its descriptor', () => {
    expect(fieldFor('select').checkDescriptor({ ...status, options: [] }, [status])).toEqual({ code: 'no_options' });
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
    expect(fieldFor('slug').checkDescriptor(slug, [title, slug])).toBeNull();
    expect(fieldFor('slug').checkDescriptor({ ...slug, parent: 'nope' }, [title, slug])).toEqual({
      code: 'unknown_parent',
      parent: 'nope',
    });
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

describe('textarea and markdown fields', () => {
  it('keep line breaks', () => {
    expect(fieldFor('textarea').parse('one\ntwo', SAMPLES.textarea)).toEqual({ ok: true, value: 'one\ntwo' });
    expect(fieldFor('markdown').parse('# Title\n\n*body*', SAMPLES.markdown)).toEqual({
      ok: true,
      value: '# Title\n\n*body*',
    });
  });
});

describe('number field', () => {
  it.each([
    ['42', 42],
    ['-3.5', -3.5],
    [' 7 ', 7],
    ['1e3', 1000],
    [12, 12],
  ])('reads %j as %j', (raw, value) => {
    expect(fieldFor('number').parse(raw, SAMPLES.number)).toEqual({ ok: true, value });
  });
  it.each(['ten', '1,5', 'NaN', 'Infinity', '0x10'])('refuses %j', (raw) => {
    expect(fieldFor('number').parse(raw, SAMPLES.number).ok).toBe(false);
  });
  it('refuses non-finite JSON numbers', () => {
    expect(fieldFor('number').parse(Number.POSITIVE_INFINITY, SAMPLES.number).ok).toBe(false);
  });
});

describe('boolean field', () => {
  it.each([
    ['true', true],
    ['on', true],
    ['1', true],
    ['false', false],
    ['0', false],
    [true, true],
    [false, false],
  ])('reads %j as %j', (raw, value) => {
    expect(fieldFor('boolean').parse(raw, SAMPLES.boolean)).toEqual({ ok: true, value });
  });
  it('refuses anything else', () => {
    expect(fieldFor('boolean').parse('maybe', SAMPLES.boolean)).toEqual({
      ok: false,
      problem: { code: 'not_a_boolean' },
    });
  });
  it('stores 1/0 and reads back true/false', () => {
    expect(fieldFor('boolean').toStored(true)).toBe(1);
    expect(fieldFor('boolean').serialize(0, SAMPLES.boolean)).toBe(false);
    expect(fieldFor('boolean').parseFilter('true', SAMPLES.boolean)).toEqual({ ok: true, value: 1 });
  });
});

describe('date field', () => {
  it('accepts a real date', () => {
    expect(fieldFor('date').parse('2024-02-29', SAMPLES.date)).toEqual({ ok: true, value: '2024-02-29' });
  });
  it.each(['2025-02-29', '2025-13-01', '2025-1-1', '2025-01-01 10:00:00'])('refuses %j', (raw) => {
    expect(fieldFor('date').parse(raw, SAMPLES.date).ok).toBe(false);
  });
});

describe('image field', () => {
  it('accepts an uploaded file path', () => {
    expect(fieldFor('image').parse('/media/2026/11/01a2044d-71da-7029-9f40-4aee790ee7d5.png', SAMPLES.image)).toEqual({
      ok: true,
      value: '/media/2026/11/01a2044d-71da-7029-9f40-4aee790ee7d5.png',
    });
  });
  it.each([
    '/media/../content.sqlite',
    '/etc/passwd',
    'https://example.com/a.png',
    '/media/a/../../b.png',
    '/media/2025/06/hand-made-name.jpg',
    'media/a.png',
  ])('refuses %j', (raw) => {
    expect(fieldFor('image').parse(raw, SAMPLES.image).ok).toBe(false);
  });
});

describe('tags field', () => {
  it('reads an array, trimming, dropping empties and repeats', () => {
    expect(fieldFor('tags').parse([' news ', 'local', '', 'news'], SAMPLES.tags)).toEqual({
      ok: true,
      value: ['news', 'local'],
    });
  });
  it('reads one string as one tag and nothing as no tags', () => {
    expect(fieldFor('tags').parse('solo', SAMPLES.tags)).toEqual({ ok: true, value: ['solo'] });
    expect(fieldFor('tags').parse(undefined, SAMPLES.tags)).toEqual({ ok: true, value: [] });
  });
  it('refuses non-strings', () => {
    expect(fieldFor('tags').parse([1, 2], SAMPLES.tags).ok).toBe(false);
  });
  it('stores a JSON array and matches by membership', () => {
    expect(fieldFor('tags').toStored(['a', 'b'])).toBe('["a","b"]');
    expect(fieldFor('tags').serialize('["a","b"]', SAMPLES.tags)).toEqual(['a', 'b']);
    expect(fieldFor('tags').filter).toBe('contains');
    expect(fieldFor('tags').orderable).toBe(false);
  });
});

describe('relation field', () => {
  it('reads a row id or an object with an id', () => {
    expect(fieldFor('relation').parse('cat-1', SAMPLES.relation)).toEqual({ ok: true, value: 'cat-1' });
    expect(fieldFor('relation').parse({ id: 'cat-2', title: 'x' }, SAMPLES.relation)).toEqual({
      ok: true,
      value: 'cat-2',
    });
  });
  it('needs a target in its descriptor', () => {
    expect(fieldFor('relation').checkDescriptor({ ...SAMPLES.relation, target: undefined }, [])).toEqual({
      code: 'no_target',
    });
  });
});
