import { describe, expect, it } from 'vitest';
import { formatFilter, type ParsedFilter, parseFilterText } from './filter-syntax.js';

const read = (text: string) => {
  const result = parseFilterText(text);
  if (!result.ok) throw new Error(`${text}: ${result.problem.code}`);
  return result.filter;
};

describe('parseFilterText', () => {
  it("keeps the spec's forms: equality split at the first =, an empty value, search", () => {
    expect(read('status=published')).toEqual({ kind: 'field', field: 'status', operator: 'eq', values: ['published'] });
    expect(read('title=a=b<c|d')).toEqual({ kind: 'field', field: 'title', operator: 'eq', values: ['a=b<c|d'] });
    expect(read('summary=')).toEqual({ kind: 'field', field: 'summary', operator: 'eq', values: [''] });
    expect(read('search=Über café')).toEqual({ kind: 'search', keyword: 'Über café' });
  });

  it.each([
    ['published_at<=2026-01-01 00:00:00', 'le', '2026-01-01 00:00:00'],
    ['published_at>=2026-01-01', 'ge', '2026-01-01'],
    ['price<3.5', 'lt', '3.5'],
    ['price>=10', 'ge', '10'],
    ['price>-1', 'gt', '-1'],
    ['status!=draft', 'ne', 'draft'],
    ['title<=a=b', 'le', 'a=b'],
  ])('reads the comparison %s', (text, operator, value) => {
    expect(read(text)).toMatchObject({ operator, values: [value] });
  });

  it('reads one-of lists with \\| and \\\\ escapes', () => {
    expect(read('status:in=draft|published')).toEqual({
      kind: 'field',
      field: 'status',
      operator: 'in',
      values: ['draft', 'published'],
    });
    expect(read('status:in=a\\|b|c\\\\')).toMatchObject({ values: ['a|b', 'c\\'] });
    expect(read('status:in=one')).toMatchObject({ values: ['one'] });
  });

  it('reads empty and not empty', () => {
    expect(read('summary:empty')).toEqual({ kind: 'field', field: 'summary', operator: 'empty', values: [] });
    expect(read('summary:notempty')).toMatchObject({ operator: 'notempty', values: [] });
  });

  it("reads a relation by its target's column", () => {
    expect(read('category.slug=tips')).toEqual({
      kind: 'field',
      field: 'category',
      through: 'slug',
      operator: 'eq',
      values: ['tips'],
    });
    expect(read('category.slug:in=a|b')).toMatchObject({ through: 'slug', operator: 'in', values: ['a', 'b'] });
  });

  it.each([
    ['status', 'not_a_filter', 'status'],
    ['=x', 'not_a_filter', undefined],
    ['status:', 'not_a_filter', 'status'],
    ['status:like=x', 'not_a_filter', 'status'],
    ['status:empty=x', 'not_a_filter', 'status'],
    ['status!x', 'not_a_filter', 'status'],
    ['category.=x', 'not_a_filter', 'category'],
    ['category.slug', 'not_a_filter', 'category'],
    ['status:in=', 'no_filter_values', 'status'],
    ['status:in=a||b', 'no_filter_values', 'status'],
    ['status:in=a|', 'no_filter_values', 'status'],
    ['status:in=a\\b', 'no_filter_values', 'status'],
  ])('refuses %s (%s)', (text, code, field) => {
    expect(parseFilterText(text)).toEqual({ ok: false, problem: { code }, ...(field ? { field } : {}) });
  });
});

describe('a compared value that begins with an operator character', () => {
  it.each([
    ['title<>=x', '<', '>=x'],
    ['title<>x', '<', '>x'],
    ['title==x', '=', '=x'],
    ['price=>5', '=', '>5'],
    ['price=<5', '=', '<5'],
    ['status!==draft', '!=', '=draft'],
    ['status=!draft', '=', '!draft'],
    ['category.slug=>a', '=', '>a'],
  ])('refuses %s as ambiguous', (text, operator, value) => {
    expect(parseFilterText(text)).toEqual({
      ok: false,
      field: text.split(/[=!<>.]/)[0],
      problem: { code: 'ambiguous_filter', operator, value },
    });
  });

  it.each([
    ['title<\\>=x', 'lt', '>=x'],
    ['title=\\=x', 'eq', '=x'],
    ['title!=\\!x', 'ne', '!x'],
    ['title>=\\<', 'ge', '<'],
    ['title=\\\\=x', 'eq', '\\=x'],
    ['title=\\\\x', 'eq', '\\x'],
    // A `\` before anything else is the value's own.
    ['title=\\x', 'eq', '\\x'],
    ['title=\\', 'eq', '\\'],
    ['title=a>=b', 'eq', 'a>=b'],
  ])('reads the escaped %s', (text, operator, value) => {
    expect(read(text)).toMatchObject({ operator, values: [value] });
  });

  it.each(['>=x', '=', '!', '<b', '\\', '\\x', '\\=', 'a<b'])('writes %j so that it reads back the same', (value) => {
    for (const operator of ['eq', 'ne', 'lt', 'ge'] as const) {
      const filter: ParsedFilter = { kind: 'field', field: 'title', operator, values: [value] };
      expect(read(formatFilter(filter))).toEqual(filter);
    }
  });
});

describe('formatFilter', () => {
  it.each<ParsedFilter>([
    { kind: 'search', keyword: 'café' },
    { kind: 'field', field: 'status', operator: 'eq', values: ['draft'] },
    { kind: 'field', field: 'status', operator: 'in', values: ['a|b', 'c\\', 'd'] },
    { kind: 'field', field: 'published_at', operator: 'ge', values: ['2026-01-01 00:00:00'] },
    { kind: 'field', field: 'summary', operator: 'notempty', values: [] },
    { kind: 'field', field: 'category', through: 'slug', operator: 'ne', values: ['tips'] },
  ])('writes %j so that it reads back the same', (filter) => {
    expect(read(formatFilter(filter))).toEqual(filter);
  });

  it('writes the documented forms', () => {
    expect(formatFilter({ kind: 'field', field: 'status', operator: 'in', values: ['draft', 'published'] })).toBe(
      'status:in=draft|published',
    );
    expect(
      formatFilter({ kind: 'field', field: 'published_at', operator: 'le', values: ['2026-01-01 00:00:00'] }),
    ).toBe('published_at<=2026-01-01 00:00:00');
  });
});

describe('missing:<locale>', () => {
  it('reads missing:de as the rows lacking their own value in de, and writes it back', () => {
    const read = parseFilterText('missing:de-AT');
    expect(read).toEqual({ ok: true, filter: { kind: 'missing', locale: 'de-AT' } });
    if (read.ok) expect(formatFilter(read.filter)).toBe('missing:de-AT');
  });

  it('leaves the filters of a field called missing to it', () => {
    expect(parseFilterText('missing=x')).toMatchObject({ ok: true, filter: { kind: 'field', field: 'missing' } });
    expect(parseFilterText('missing:empty')).toMatchObject({
      ok: true,
      filter: { field: 'missing', operator: 'empty' },
    });
    expect(parseFilterText('missing:notempty')).toMatchObject({ ok: true, filter: { operator: 'notempty' } });
    expect(parseFilterText('missing:in=a|b')).toMatchObject({
      ok: true,
      filter: { operator: 'in', values: ['a', 'b'] },
    });
    expect(parseFilterText('missing:de=x').ok).toBe(false);
    expect(parseFilterText('missing:').ok).toBe(false);
  });
});
