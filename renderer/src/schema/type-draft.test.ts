import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import { typeOf } from '../test-support/fake-api.js';
import {
  addField,
  changeField,
  changeOptionText,
  columnChanges,
  createRequest,
  draftChanges,
  draftFromType,
  identifierFrom,
  isDraftDirty,
  moveField,
  newField,
  reapplyDraft,
  removeField,
  setSlug,
  setTitle,
  updateRequest,
} from './type-draft.js';
import { placeTypeErrors } from './type-errors.js';

const MENU = typeOf(
  'menu_items',
  [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
    { name: 'url', label: 'URL', type: 'text', required: false },
    { name: 'position', label: 'Position', type: 'number', required: false },
  ],
  { title: 'Menu items' },
);

const keyOf = (draft: ReturnType<typeof draftFromType>, name: string) =>
  draft.fields.find((field) => field.name === name)?.key ?? '';

describe('a new content type', () => {
  it('starts with a Title and a Slug made from it', () => {
    const draft = draftFromType(null);
    expect(createRequest(draft).columns).toEqual([
      { name: 'title', label: 'Title', type: 'text', required: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
    ]);
  });

  it('makes slug and table from the title until they are edited by hand', () => {
    let draft = setTitle(draftFromType(null), 'Blog posts');
    expect([draft.slug, draft.table]).toEqual(['blog-posts', 'blog_posts']);
    draft = setSlug(draft, 'posts');
    draft = setTitle(draft, 'Blog articles');
    expect([draft.slug, draft.table]).toEqual(['posts', 'posts']);
  });

  it('names a field after its label until the name is edited, avoiding names already taken', () => {
    const field = newField();
    let draft = addField(draftFromType(null), field);
    draft = changeField(draft, field.key, { label: 'Title' });
    expect(draft.fields[2].name).toBe('title_2');
    draft = changeField(draft, field.key, { label: '2nd Édition!' });
    expect(draft.fields[2].name).toBe('n_2nd_edition');
    draft = changeField(draft, field.key, { name: 'edition' });
    draft = changeField(draft, field.key, { label: 'Something else' });
    expect(draft.fields[2].name).toBe('edition');
    expect(identifierFrom('Published at')).toBe('published_at');
  });

  it('gives a field what its new type needs: options, a slug source, a relation target', () => {
    const field = newField('text', 'Kind');
    let draft = addField(draftFromType(null), field);
    draft = changeField(draft, field.key, { type: 'select' });
    const [option] = draft.fields[2].options;
    draft = changeField(draft, field.key, {
      options: changeOptionText(draft.fields[2].options, option.key, 'In stock'),
    });
    expect(createRequest(draft).columns[2]).toEqual({
      name: 'kind',
      label: 'Kind',
      type: 'select',
      required: false,
      options: [{ id: 'in-stock', text: 'In stock' }],
    });
    draft = changeField(draft, field.key, { type: 'relation' }, ['categories', 'news']);
    expect(createRequest(draft).columns[2]).toMatchObject({ type: 'relation', target: 'categories' });
    expect(createRequest(draft).columns[2]).not.toHaveProperty('options');
  });
});

describe('editing a saved content type', () => {
  it('sends a renamed field with `from`, so its data moves along, and slugs follow the new name', () => {
    let draft = draftFromType(MENU);
    draft = changeField(draft, keyOf(draft, 'title'), { name: 'name' });
    const columns = updateRequest(draft).columns ?? [];
    expect(columns[0]).toEqual({ name: 'name', label: 'Title', type: 'text', required: true, from: 'title' });
    expect(columns[1]).toMatchObject({ name: 'slug', parent: 'name' });
    expect(columns[1]).not.toHaveProperty('from');
  });

  it('reorders and removes fields, and knows when nothing changed', () => {
    const saved = draftFromType(MENU);
    let draft = moveField(saved, keyOf(saved, 'position'), -1);
    expect(draft.fields.map((field) => field.name)).toEqual(['title', 'slug', 'position', 'url']);
    expect(moveField(draft, keyOf(draft, 'title'), -1)).toBe(draft);
    expect(isDraftDirty(draft, saved)).toBe(true);
    draft = moveField(draft, keyOf(draft, 'position'), 1);
    expect(isDraftDirty(draft, saved)).toBe(false);
    draft = removeField(draft, keyOf(draft, 'title'));
    expect(updateRequest(draft).columns?.map((column) => column.name)).toEqual(['slug', 'url', 'position']);
    expect(draft.fields[0].parent).toBe('');
  });
});

describe('conditions in the type editor', () => {
  const POSTS = typeOf('posts', [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'url', label: 'URL', type: 'text', required: true, when: { field: 'title', notEmpty: true } },
  ]);

  it('sends a field’s condition, which follows a rename of the field it names', () => {
    let draft = draftFromType(POSTS);
    expect(updateRequest(draft).columns?.[1].when).toEqual({ field: 'title', notEmpty: true });
    draft = changeField(draft, keyOf(draft, 'title'), { name: 'headline' });
    expect(updateRequest(draft).columns?.[1].when).toEqual({ field: 'headline', notEmpty: true });
    draft = changeField(draft, keyOf(draft, 'url'), { when: undefined });
    expect(updateRequest(draft).columns?.[1]).not.toHaveProperty('when');
  });

  it('shows a field always once the field its condition names is removed', () => {
    let draft = draftFromType(POSTS);
    draft = removeField(draft, keyOf(draft, 'title'));
    expect(draft.fields[0].when).toBeUndefined();
  });
});

describe('server problems with a content type', () => {
  it('are placed at the input they name, by the position of the field in the request', () => {
    const draft = draftFromType(MENU);
    const placed = placeTypeErrors(
      {
        preview_path: 'must be an http(s) URL or a path starting with /',
        'columns[2].name': 'id is reserved; pick another name',
        'columns[3]': 'a select needs at least one option',
        slug: 'cannot change type from slug to number; add a new column instead',
        columns: 'column url is listed twice',
      },
      draft.fields,
      'update',
    );
    expect(placed.type).toEqual({ preview_path: 'must be an http(s) URL or a path starting with /' });
    expect(placed.fields[keyOf(draft, 'url')]).toEqual({ name: 'id is reserved; pick another name' });
    expect(placed.fields[keyOf(draft, 'position')]).toEqual({ general: 'a select needs at least one option' });
    expect(placed.fields[keyOf(draft, 'slug')]).toEqual({
      general: 'cannot change type from slug to number; add a new column instead',
    });
    expect(placed.other).toEqual(['columns column url is listed twice']);
  });

  it('name the type’s slug on a create, where problems are not keyed by column name', () => {
    const draft = draftFromType(null);
    const placed = placeTypeErrors({ slug: 'is already taken', table: 'is reserved' }, draft.fields, 'create');
    expect(placed.type).toEqual({ slug: 'is already taken', table: 'is reserved' });
    expect(placed.fields).toEqual({});
  });
});

describe('re-applying a kept draft over someone else’s version', () => {
  const columns: ColumnDescriptor[] = [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'body', label: 'Body', type: 'markdown', required: false },
    { name: 'note', label: 'Note', type: 'text', required: false },
  ];
  const type = (title: string, list: ColumnDescriptor[]) => ({ ...typeOf('posts', list), title });

  it('lists what I changed and puts it over theirs, leaving what I did not touch as they saved it', () => {
    const base = draftFromType(type('Posts', columns));
    let mine = changeField(base, base.fields[1]?.key ?? '', { label: 'Text' });
    mine = removeField(mine, mine.fields[2]?.key ?? '');
    mine = addField(mine, { ...newField('text', 'Summary') });
    mine = { ...mine, title: 'Articles' };
    expect(draftChanges(mine, base)).toEqual([
      { part: 'title' },
      { part: 'field', change: 'changed', label: 'Text' },
      { part: 'field', change: 'added', label: 'Summary' },
      { part: 'field', change: 'removed', label: 'Note' },
    ]);

    const theirs = draftFromType(
      type('Posts', [{ ...columns[0], label: 'Heading' } as ColumnDescriptor, ...columns.slice(1)]),
    );
    const merged = reapplyDraft(mine, base, theirs);
    expect(merged.title).toBe('Articles');
    expect(columnChanges(merged)).toEqual([
      { name: 'title', label: 'Heading', type: 'text', required: true },
      { name: 'body', label: 'Text', type: 'markdown', required: false },
      { name: 'summary', label: 'Summary', type: 'text', required: false },
    ]);
  });

  it('keeps my order of the fields we both have, theirs new field keeping its place', () => {
    const base = draftFromType(type('Posts', columns));
    const mine = moveField(base, keyOf(base, 'note'), -1);
    expect(draftChanges(mine, base)).toEqual([{ part: 'order' }]);
    const added: ColumnDescriptor = { name: 'lead', label: 'Lead', type: 'text', required: false };
    const theirs = draftFromType(type('Posts', [columns[0], added, columns[1], { ...columns[2], label: 'Remark' }]));
    expect(columnChanges(reapplyDraft(mine, base, theirs)).map((column) => [column.name, column.label])).toEqual([
      ['title', 'Title'],
      ['lead', 'Lead'],
      ['note', 'Remark'],
      ['body', 'Body'],
    ]);
    // Without a reorder of mine, theirs' order stands.
    expect(columnChanges(reapplyDraft(base, base, theirs)).map((column) => column.name)).toEqual([
      'title',
      'lead',
      'body',
      'note',
    ]);
  });

  it('keeps my change of kind, sent with the type, and theirs where I left it', () => {
    const base = draftFromType(type('Posts', columns));
    expect(base.kind).toBe('collection');
    const mine = { ...base, kind: 'single' as const };
    expect(isDraftDirty(mine, base)).toBe(true);
    expect(draftChanges(mine, base)).toEqual([{ part: 'kind' }]);
    expect(updateRequest(mine).type).toBe('single');
    expect(createRequest(mine).type).toBe('single');
    const theirs = { ...draftFromType(type('Posts', columns)), kind: 'single' as const };
    expect(reapplyDraft(mine, base, theirs).kind).toBe('single');
    expect(reapplyDraft(base, base, theirs).kind).toBe('single');
    expect(reapplyDraft(mine, base, draftFromType(type('Posts', columns))).kind).toBe('single');
  });
});
