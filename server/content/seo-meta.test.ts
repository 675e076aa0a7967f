import { describe, expect, it } from 'vitest';
import { noProblems } from '../../common/field-problems.js';
import { applyMetaPatch, readMetaPatch, resolvePageMeta } from './seo-meta.js';

describe('readMetaPatch', () => {
  it('says nothing when the body has no meta', () => {
    expect(readMetaPatch({ title: 'x' }, {})).toBeUndefined();
  });

  it('reads nested meta (form meta[title] or JSON meta object)', () => {
    expect(readMetaPatch({ meta: { title: 'T', keywords: 'a, b' } }, {})).toEqual({ title: 'T', keywords: 'a, b' });
  });

  it('reads the flat meta_title, meta_description, meta_keywords names', () => {
    expect(readMetaPatch({ meta_title: 'T', meta_description: 'D' }, {})).toEqual({ title: 'T', description: 'D' });
  });

  it('reads null or an empty string as clearing meta', () => {
    expect(readMetaPatch({ meta: null }, {})).toBeNull();
    expect(readMetaPatch({ meta: '' }, {})).toBeNull();
  });

  it('reports unknown members and repeated values', () => {
    const problems = noProblems();
    readMetaPatch({ meta: { author: 'x', title: ['a', 'b'] } }, problems);
    expect({ ...problems }).toEqual({
      'meta[author]': { code: 'not_a_meta_member' },
      'meta[title]': { code: 'repeated' },
    });
  });
});

describe('applyMetaPatch', () => {
  it('fills missing members with empty strings', () => {
    expect(applyMetaPatch(null, { title: 'T' })).toEqual({ title: 'T', description: '', keywords: '' });
  });
  it('keeps members the patch does not name', () => {
    expect(applyMetaPatch({ title: 'T', description: 'D', keywords: 'K' }, { keywords: 'new' })).toEqual({
      title: 'T',
      description: 'D',
      keywords: 'new',
    });
  });
  it('becomes null when every member is empty', () => {
    expect(applyMetaPatch({ title: 'T', description: '', keywords: '' }, { title: '' })).toBeNull();
  });
});

describe('resolvePageMeta', () => {
  it('takes each member from meta first', () => {
    const meta = { title: 'SEO', description: 'Desc', keywords: 'k' };
    expect(resolvePageMeta({ title: 'Row', description: 'Row desc' }, meta, 'title')).toEqual(meta);
  });
  it('falls back to the title, description and tags columns', () => {
    expect(resolvePageMeta({ title: 'Row', description: 'About', tags: ['a', 'b'] }, null, 'title')).toEqual({
      title: 'Row',
      description: 'About',
      keywords: 'a, b',
    });
  });
  it('gives empty strings where nothing is known', () => {
    expect(resolvePageMeta({ title: 'Row' }, null, 'title')).toEqual({ title: 'Row', description: '', keywords: '' });
  });
});
