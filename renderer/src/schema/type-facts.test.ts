import { describe, expect, it } from 'vitest';
import type { PublishedColumn } from '../../../common/api-contract.js';
import { isSearchable, searchCoversText } from './type-facts.js';

const column = (name: string, type: PublishedColumn['type']): PublishedColumn =>
  ({ name, type, filterable: true, orderable: true }) as PublishedColumn;

describe('search facts', () => {
  it('says a type searched by title and slug alone does not cover text', () => {
    const type = {
      columns: [column('title', 'text'), column('slug', 'slug'), column('body', 'markdown')],
      search_columns: ['title', 'slug'],
    };
    expect(isSearchable(type)).toBe(true);
    expect(searchCoversText(type)).toBe(false);
  });

  it('says a type whose search reads rich text or blocks covers text', () => {
    for (const kind of ['richtext', 'blocks'] as const) {
      const type = { columns: [column('title', 'text'), column('body', kind)], search_columns: ['title', 'body'] };
      expect(searchCoversText(type)).toBe(true);
    }
  });

  it('goes by what the server publishes: a body column it does not search does not count', () => {
    const type = { columns: [column('title', 'text'), column('body', 'richtext')], search_columns: ['title'] };
    expect(searchCoversText(type)).toBe(false);
  });
});
