import { describe, expect, it } from 'vitest';
import type { ContentRow, ContentTypeSummary } from '../../../common/api-contract.js';
import { changedFieldLabels } from './live-row-notice.js';

const type = {
  table: 'news',
  columns: [
    { name: 'title', label: 'Title', type: 'text' },
    { name: 'body', label: 'Body', type: 'markdown' },
    { name: 'tags', label: 'Tags', type: 'tags' },
  ],
} as unknown as ContentTypeSummary;

const row = (values: Record<string, unknown>) => ({ id: 'a', ...values }) as unknown as ContentRow;

describe('changedFieldLabels', () => {
  it('names the columns whose values differ, in the order of the type', () => {
    const mine = row({ title: 'Harbour', body: 'Boats', tags: ['sea'] });
    const theirs = row({ title: 'Harbour opens', body: 'Boats', tags: ['sea', 'port'], updated_at: 'later' });
    expect(changedFieldLabels(type, mine, theirs)).toEqual(['Title', 'Tags']);
  });

  it('treats a missing value as empty, and equal lists as unchanged', () => {
    expect(
      changedFieldLabels(type, row({ title: 'A', tags: ['x'] }), row({ title: 'A', body: null, tags: ['x'] })),
    ).toEqual([]);
  });
});
