import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error.js';
import { EditorApp } from '../app.js';
import { previewHref } from '../routing/preview-path.js';
import { fakeApi, listOf, rowOf, typeOf } from '../test-support/fake-api.js';

const CATEGORIES = typeOf(
  'categories',
  [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
  ],
  { preview_path: 'http://localhost:4321/topics/{slug}?id={id}' },
);
const ARTICLES = typeOf('articles', [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
]);
const culture = rowOf({ id: 'c 1', title: 'Culture & arts', slug: 'culture-arts' });

describe('the row editor of a type with a preview path and rows pointing at it', () => {
  beforeEach(() => window.history.replaceState(null, '', '/categories/rows/c%201'));

  it('links to the saved row’s preview, with its slug and id filled in', async () => {
    const getRow = vi.fn(async () => ({ ...listOf([culture]), meta: { title: '', description: '', keywords: '' } }));
    render(<EditorApp client={fakeApi([CATEGORIES, ARTICLES], { getRow })} />);
    const link = await screen.findByRole('link', { name: 'Open preview' });
    expect(link.getAttribute('href')).toBe('http://localhost:4321/topics/culture-arts?id=c%201');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener');
  });

  it('names the rows that still use it when the delete is refused, as links to them', async () => {
    const user = userEvent.setup();
    const getRow = vi.fn(async () => ({ ...listOf([culture]), meta: { title: '', description: '', keywords: '' } }));
    const deleteRow = vi.fn(async () => {
      const error = new ApiError(409, 'conflict', 'This categories row is still used by articles', {}, [
        { table: 'articles', id: 'a1', title: 'Harbour festival', column: 'category' },
        { table: 'articles', id: 'a2', title: null, column: 'category' },
      ]);
      throw error;
    });
    render(<EditorApp client={fakeApi([CATEGORIES, ARTICLES], { getRow, deleteRow })} />);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('“Culture & arts” is still used by 2 rows');
    const links = within(banner).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Harbour festival', '/articles/rows/a1'],
      ['a2', '/articles/rows/a2'],
    ]);
    expect(banner.textContent).toContain('Articles, Category');
    await user.click(links[0]);
    await waitFor(() => expect(window.location.pathname).toBe('/articles/rows/a1'));
  });
});

describe('preview addresses', () => {
  const columns = CATEGORIES.columns;
  it('are missing until the row is saved or while its slug is empty', () => {
    expect(previewHref('/p/{slug}', columns, null)).toBeNull();
    expect(previewHref('/p/{slug}', columns, rowOf({ id: 'x', slug: '' }))).toBeNull();
    expect(previewHref(null, columns, rowOf({ id: 'x', slug: 'a' }))).toBeNull();
    expect(previewHref('/p/{id}', columns, rowOf({ id: 'x/y', slug: '' }))).toBe('/p/x%2Fy');
  });
});

describe('saving with Ctrl+S while a tag is still being typed', () => {
  beforeEach(() => window.history.replaceState(null, '', '/posts/new'));

  it('adds the typed tag before saving', async () => {
    const user = userEvent.setup();
    const POSTS = typeOf('posts', [
      { name: 'title', label: 'Title', type: 'text', required: true },
      { name: 'tags', label: 'Tags', type: 'tags', required: false },
    ]);
    const createRow = vi.fn(async (_type: string, body: Record<string, unknown>) => ({
      id: 'p1',
      rows: [rowOf({ id: 'p1', ...body })],
    }));
    render(<EditorApp client={fakeApi([POSTS], { createRow })} />);
    await user.type(await screen.findByLabelText('Title'), 'Hello');
    await user.type(screen.getByLabelText('Tags'), 'first{Enter}second');
    await user.keyboard('{Control>}s{/Control}');
    await waitFor(() => expect(createRow).toHaveBeenCalledTimes(1));
    expect(createRow).toHaveBeenCalledWith('posts', { title: 'Hello', tags: ['first', 'second'] });
  });
});
