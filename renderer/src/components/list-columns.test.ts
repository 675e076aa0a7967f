import { describe, expect, it } from 'vitest';
import type { PublishedColumn } from '../../../common/api-contract.js';
import { listPlaces } from './list-columns.js';

const column = (name: string, type: string): PublishedColumn =>
  ({ name, type, label: name }) as unknown as PublishedColumn;

describe('the places of list columns as the list narrows', () => {
  it('keeps the title, then status and relations, images, then dates with Updated, then tags and slugs', () => {
    const columns = [
      column('image', 'image'),
      column('title', 'text'),
      column('slug', 'slug'),
      column('status', 'select'),
      column('published_at', 'datetime'),
      column('tags', 'tags'),
      column('category', 'relation'),
    ];
    expect(Object.fromEntries(listPlaces(columns, 'title'))).toEqual({
      title: 0,
      status: 1,
      category: 2,
      image: 3,
      published_at: 4,
      updated_at: 5,
      tags: 6,
      slug: 7,
    });
  });
});
