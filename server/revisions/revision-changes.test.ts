import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { starterType } from '../test-support/content-types.js';
import { changedFields } from './revision-record.js';
import { typeChangeDetail } from './type-change-log.js';

const news = starterType('news');
const stored = {
  id: 'a',
  title: 'Harbour',
  slug: 'harbour',
  status: 'draft',
  published_at: '2026-01-01 10:00:00',
  meta: null,
  created_at: '2026-01-01 10:00:00.000000',
  updated_at: '2026-01-01 10:00:00.000000',
  created_by: 'ann',
  updated_by: 'ann',
};

describe('the fields a revision names', () => {
  it('a new row: the fields it set, meta when it has any', () => {
    expect(changedFields(news, null, stored)).toEqual(['title', 'slug', 'status', 'published_at']);
    expect(changedFields(news, null, { ...stored, meta: '{"title":"SEO"}' })).toContain('meta');
  });

  it('an update: the fields whose values differ, not the system fields it always moves', () => {
    const after = { ...stored, status: 'published', updated_at: '2026-01-02 10:00:00.000000', updated_by: 'bob' };
    expect(changedFields(news, stored, after)).toEqual(['status']);
    expect(changedFields(news, stored, { ...stored, updated_by: 'bob' })).toEqual([]);
  });

  it('a delete: none', () => {
    expect(changedFields(news, stored, null)).toEqual([]);
  });
});

describe('what a content-type change did', () => {
  const text = (name: string, label = name): ColumnDescriptor => ({ name, label, type: 'text', required: false });
  const before = { title: 'Shows', previewPath: null, columns: [text('name'), text('venue'), text('city')] };

  it('a new type: its title and fields', () => {
    expect(typeChangeDetail(null, before)).toEqual({
      title: { from: null, to: 'Shows' },
      added: ['name', 'venue', 'city'],
    });
  });

  it('fields added, removed, renamed (by `from`) and changed, title and preview address', () => {
    const after = {
      title: 'Gigs',
      previewPath: 'https://example.com/{slug}',
      columns: [text('name', 'Name'), { ...text('town', 'city'), from: 'city' }, text('price')],
    };
    expect(typeChangeDetail(before, after)).toEqual({
      title: { from: 'Shows', to: 'Gigs' },
      preview_path: { from: null, to: 'https://example.com/{slug}' },
      added: ['price'],
      dropped: ['venue'],
      renamed: [{ from: 'city', to: 'town' }],
      changed: ['name'],
    });
  });

  it('nothing, for the same type sent back', () => {
    expect(typeChangeDetail(before, before)).toEqual({});
  });
});
