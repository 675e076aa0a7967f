import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { conflictFields, defaultChoice, META_FIELD, mineAsJson, resolveConflict } from './conflict-merge.js';
import type { FormState } from './form-state.js';

const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'body', label: 'Body', type: 'textarea', required: false },
  { name: 'status', label: 'Status', type: 'text', required: false },
];

const form = (values: Record<string, string>, title = ''): FormState => ({
  values,
  following: {},
  meta: { title, description: '', keywords: '' },
});

const base = form({ title: 'Opened', body: 'Body', status: 'draft' });
const theirs = form({ title: 'Theirs', body: 'Body', status: 'published' });
const mine = form({ title: 'Mine', body: 'My body', status: 'draft' }, 'My SEO title');

describe('conflictFields', () => {
  it('lists the fields either person changed, with who changed what, SEO last', () => {
    const fields = conflictFields(COLUMNS, base, theirs, mine);
    expect(fields.map((field) => [field.name, field.theyChanged, field.iChanged])).toEqual([
      ['title', true, true],
      ['body', false, true],
      ['status', true, false],
      [META_FIELD, false, true],
    ]);
    expect(fields.map(defaultChoice)).toEqual(['mine', 'mine', 'theirs', 'mine']);
  });
});

describe('resolveConflict', () => {
  it('starts from their version and takes the fields chosen as mine from this person’s form', () => {
    const fields = conflictFields(COLUMNS, base, theirs, mine);
    const kept = resolveConflict(fields, theirs, mine, { title: 'theirs' });
    expect(kept.values).toEqual({ title: 'Theirs', body: 'My body', status: 'published' });
    expect(kept.meta.title).toBe('My SEO title');
    const all = resolveConflict(fields, theirs, mine, {
      title: 'mine',
      body: 'theirs',
      status: 'mine',
      meta: 'theirs',
    });
    expect(all.values).toEqual({ title: 'Mine', body: 'Body', status: 'draft' });
    expect(all.meta.title).toBe('');
  });
});

describe('mineAsJson', () => {
  it('holds every field of this person’s version and the SEO members', () => {
    expect(JSON.parse(mineAsJson(COLUMNS, mine))).toEqual({
      title: 'Mine',
      body: 'My body',
      status: 'draft',
      meta: { title: 'My SEO title', description: '', keywords: '' },
    });
  });
});
