import { beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor, ContentRow } from '../../../common/api-contract.js';
import { loadTransliteration } from '../schema/slugify.js';
import {
  buildWriteBody,
  changeField,
  changeMeta,
  initialFormState,
  isDirty,
  placeFieldErrors,
  regenerateField,
} from './form-state.js';

// The row editor opens once the transliteration tables have loaded (see slugify.ts).
beforeAll(loadTransliteration);

const NEWS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    required: true,
    options: [
      { id: 'draft', text: 'Draft' },
      { id: 'published', text: 'Published' },
    ],
  },
  { name: 'published_at', label: 'Published at', type: 'datetime', required: true },
];

const NOW = new Date(2025, 0, 6, 8, 30, 0);

const savedRow: ContentRow = {
  id: 'r1',
  title: 'Harbour festival',
  slug: 'harbour-festival',
  status: 'published',
  published_at: '2025-01-06 08:30:00',
  meta: null,
  created_at: '2025-01-06 08:30:00.000000',
  updated_at: '2025-01-06 08:30:00.000000',
  created_by: 'ed',
  updated_by: 'ed',
};

const typeTitle = (text: string) => {
  let state = initialFormState(NEWS, null, NOW);
  for (let end = 1; end <= text.length; end++) state = changeField(state, NEWS, 'title', text.slice(0, end));
  return state;
};

describe('a new row', () => {
  it('starts with sensible values: empty text, the first option, the current time', () => {
    const state = initialFormState(NEWS, null, NOW);
    expect(state.values).toEqual({ title: '', slug: '', status: 'draft', published_at: '2025-01-06 08:30:00' });
    expect(state.following.slug).toBe(true);
  });

  it('fills the slug from the title as the user types, transliterated like the server does', () => {
    expect(typeTitle('Café Müller: 50 years!').values.slug).toBe('cafe-muller-50-years');
    expect(typeTitle('Smørrebrød pop-up').values.slug).toBe('smorrebrod-pop-up');
  });

  it('stops following once the slug is edited by hand, and keeps the hand-made slug', () => {
    let state = typeTitle('Harbour');
    state = changeField(state, NEWS, 'slug', 'my-own-slug');
    state = changeField(state, NEWS, 'title', 'Harbour festival');
    expect(state.values.slug).toBe('my-own-slug');
    expect(state.following.slug).toBe(false);
  });

  it('follows the title again after Regenerate', () => {
    let state = changeField(typeTitle('Harbour'), NEWS, 'slug', 'mine');
    state = regenerateField(state, NEWS, 'slug');
    expect(state.values.slug).toBe('harbour');
    state = changeField(state, NEWS, 'title', 'Harbour lights');
    expect(state.values.slug).toBe('harbour-lights');
  });

  it('leaves a following slug to the server (which makes it unique) and sends the filled-in fields', () => {
    const initial = initialFormState(NEWS, null, NOW);
    const state = changeMeta(typeTitle('Harbour'), 'title', 'Harbour | Gazette');
    expect(buildWriteBody(state, initial, NEWS, 'create')).toEqual({
      title: 'Harbour',
      status: 'draft',
      published_at: '2025-01-06 08:30:00',
      meta: { title: 'Harbour | Gazette', description: '', keywords: '' },
    });
  });

  it('sends a hand-made slug and leaves out empty fields so the server can say what is required', () => {
    const initial = initialFormState(NEWS, null, NOW);
    let state = changeField(initial, NEWS, 'slug', 'custom');
    state = changeField(state, NEWS, 'published_at', '');
    expect(buildWriteBody(state, initial, NEWS, 'create')).toEqual({ slug: 'custom', status: 'draft' });
  });
});

describe('a saved row', () => {
  const saved = initialFormState(NEWS, savedRow, NOW);

  it('keeps its slug when the title changes, so links to it keep working', () => {
    const state = changeField(saved, NEWS, 'title', 'Harbour festival returns');
    expect(state.values.slug).toBe('harbour-festival');
    expect(buildWriteBody(state, saved, NEWS, 'update')).toEqual({ title: 'Harbour festival returns' });
  });

  it('asks the server for a fresh unique slug after Regenerate (null), not the client-made one', () => {
    const state = regenerateField(changeField(saved, NEWS, 'title', 'New name'), NEWS, 'slug');
    expect(state.values.slug).toBe('new-name');
    expect(buildWriteBody(state, saved, NEWS, 'update')).toEqual({ title: 'New name', slug: null });
  });

  it('is dirty only while it differs from what was saved', () => {
    expect(isDirty(saved, saved, NEWS)).toBe(false);
    const edited = changeField(saved, NEWS, 'title', 'Other');
    expect(isDirty(edited, saved, NEWS)).toBe(true);
    expect(isDirty(changeField(edited, NEWS, 'title', 'Harbour festival'), saved, NEWS)).toBe(false);
    expect(isDirty(changeMeta(saved, 'keywords', 'x'), saved, NEWS)).toBe(true);
  });

  it('sends cleared fields as null and clears SEO meta with null when every member is empty', () => {
    const withMeta = initialFormState(NEWS, { ...savedRow, meta: { title: 'T', description: '', keywords: '' } }, NOW);
    let state = changeField(withMeta, NEWS, 'published_at', '');
    state = changeMeta(state, 'title', '');
    expect(buildWriteBody(state, withMeta, NEWS, 'update')).toEqual({ published_at: null, meta: null });
  });

  it('never sends back a value of a type the editor cannot edit', () => {
    // A type from a newer server, holding a list.
    const future = 'geo-points' as string as ColumnDescriptor['type'];
    const columns: ColumnDescriptor[] = [...NEWS, { name: 'places', label: 'Places', type: future, required: false }];
    const row = { ...savedRow, places: ['a', 'b'] };
    const state = initialFormState(columns, row, NOW);
    expect(state.values.places).toEqual(['a', 'b']);
    expect(buildWriteBody(changeField(state, columns, 'title', 'X'), state, columns, 'update')).toEqual({ title: 'X' });
  });
});

describe('placing server validation problems on the form', () => {
  it('puts column problems at their columns, meta problems in the SEO section, and the rest aside', () => {
    expect(
      placeFieldErrors(
        {
          title: 'is required',
          publish_at: 'must be a real date and time',
          'meta[title]': 'must be a string',
          meta_keywords: 'must be at most 10000 characters',
          id: 'is already taken',
          'slug[2]': 'must be at most 100 characters',
          'title[0].x': 'is required',
          'nope[1].title': 'is required',
        },
        NEWS,
      ),
    ).toEqual({
      columns: { title: 'is required', published_at: 'must be a real date and time' },
      inside: { slug: { '[2]': 'must be at most 100 characters' }, title: { '[0].x': 'is required' } },
      meta: { title: 'must be a string', keywords: 'must be at most 10000 characters' },
      other: ['id is already taken', 'nope[1].title is required'],
    });
  });
});
