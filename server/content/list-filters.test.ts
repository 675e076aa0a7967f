import { describe, expect, it } from 'vitest';
import { starterType } from '../test-support/content-types.js';
import { parseListQuery } from './list-query.js';
import { selectionKey } from './read-cache.js';

const news = starterType('news');
const categories = starterType('categories');
const selection = (...filter: string[]) => parseListQuery(news, { filter }).selection;

describe('filters beyond equality, as conditions for the repository', () => {
  it("keeps the spec's equality exactly as before, so its index path and followed counts stay", () => {
    expect(selection('status=draft').equals).toEqual([{ column: 'status', value: 'draft', match: 'equals' }]);
    expect(selection('title:empty').equals).toEqual([{ column: 'title', value: null, match: 'equals' }]);
  });

  it('reads comparisons, not-equal, one-of and not-empty with parsed values', () => {
    expect(selection('published_at<=2026-01-01T00:00').equals).toEqual([
      { column: 'published_at', op: 'le', value: '2026-01-01 00:00:00', match: 'equals' },
    ]);
    expect(selection('status!=draft', 'status:in=draft|archived', 'title:notempty').equals).toEqual([
      { column: 'status', op: 'ne', value: 'draft', match: 'equals' },
      { column: 'status', op: 'in', value: ['draft', 'archived'], match: 'equals' },
      { column: 'title', op: 'ne', value: null, match: 'equals' },
    ]);
  });

  it("reads a relation by its target's slug through the target's table", () => {
    const column = {
      name: 'category',
      label: 'Category',
      type: 'relation' as const,
      target: 'categories',
      required: false,
    };
    const withCategory = {
      ...news,
      columns: [...news.columns, column],
      columnsByName: new Map([...news.columnsByName, ['category', column]]),
    };
    const targets = { findBySlug: (slug: string) => (slug === 'categories' ? categories : undefined) };
    expect(parseListQuery(withCategory, { filter: 'category.slug=tips' }, targets).selection.equals).toEqual([
      {
        column: 'category',
        op: 'eq',
        value: 'tips',
        match: 'equals',
        through: { table: 'categories', column: 'slug' },
      },
    ]);
  });

  it('gives every operator its own read-cache key', () => {
    const keys = [
      'status=draft',
      'status!=draft',
      'status:in=draft',
      'title<x',
      'title<=x',
      'title>x',
      'title>=x',
      'title=x',
      'title:empty',
      'title:notempty',
    ].map((filter) => selectionKey(selection(filter)));
    expect(new Set(keys).size).toBe(keys.length);
  });
});
