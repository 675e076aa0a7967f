import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentRow, WriteBody } from '../../../common/api-contract.js';
import { ApiError } from '../api/api-error.js';
import type { ApiClient } from '../api/client.js';
import { EditorApp } from '../app.js';
import { typeOf } from '../test-support/fake-api.js';

const NEWS = typeOf(
  'news',
  [
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
  ],
  { title: 'News' },
);

function rowFrom(body: WriteBody): ContentRow {
  return {
    id: 'r1',
    title: String(body.title ?? ''),
    slug: String(body.slug ?? 'generated'),
    status: String(body.status ?? 'draft'),
    published_at: String(body.published_at ?? ''),
    meta: null,
    created_at: '2025-01-06 08:30:00.000000',
    updated_at: '2025-01-06 08:30:00.000000',
    created_by: 'ed',
    updated_by: 'ed',
  };
}

/** An API double: the content types, an empty list, and a create that the test scripts. */
function fakeApi(createRow: ApiClient['createRow']): ApiClient {
  const unexpected = () => Promise.reject(new Error('not expected in this test'));
  return {
    listContentTypes: async () => [NEWS],
    listRows: async () => ({
      time: { total: 0, init: 0, filter: 0, data: 0, count: 0, format: 0 },
      total: 0,
      filtered: 0,
      count: 0,
      pk: 'id',
      rows: [],
      columns: NEWS.columns,
      filters: [],
      preview_path: null,
      custom: false,
    }),
    getRow: unexpected,
    createRow,
    updateRow: unexpected,
    deleteRow: unexpected,
    createContentType: unexpected,
    updateContentType: unexpected,
    deleteContentType: unexpected,
    uploadFile: unexpected,
    unusedMedia: unexpected,
    apiDocument: unexpected,
    starters: unexpected,
    chooseStarters: unexpected,
  };
}

describe('the row editor', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/news/new');
  });

  it('fills the slug from the title as the user types, until the slug is edited by hand', async () => {
    const user = userEvent.setup();
    render(<EditorApp client={fakeApi(async (_type, body) => ({ id: 'r1', rows: [rowFrom(body)] }))} />);
    const title = await screen.findByLabelText('Title');
    const slug = screen.getByLabelText('Slug') as HTMLInputElement;
    await user.type(title, 'Café opens');
    expect(slug.value).toBe('cafe-opens');
    await user.clear(slug);
    await user.type(slug, 'my-cafe');
    await user.type(title, ' today');
    expect(slug.value).toBe('my-cafe');
    await user.click(screen.getByRole('button', { name: 'Regenerate Slug from Title' }));
    expect(slug.value).toBe('cafe-opens-today');
  });

  it('shows the server’s validation problem next to its field, and clears it when the field is edited', async () => {
    const createRow = vi.fn(async () => {
      throw new ApiError(400, 'validation_failed', 'Invalid input: title is required', { title: 'is required' });
    });
    render(<EditorApp client={fakeApi(createRow)} />);
    const title = await screen.findByLabelText('Title');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Title is required');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(title.getAttribute('aria-describedby')).toContain('field-title-error');
    expect(screen.getByRole('alert').textContent).toContain('Fix the highlighted field');
    fireEvent.change(title, { target: { value: 'Now it has a title' } });
    expect(screen.queryByText('Title is required')).toBeNull();
  });

  it('saves with Ctrl+S and sends the values the form holds', async () => {
    const createRow = vi.fn(async (_type: string, body: WriteBody) => ({ id: 'r1', rows: [rowFrom(body)] }));
    render(<EditorApp client={fakeApi(createRow)} />);
    const title = await screen.findByLabelText('Title');
    fireEvent.change(title, { target: { value: 'Harbour' } });
    fireEvent.change(screen.getByLabelText('Published at'), { target: { value: '2025-03-04T10:20:30' } });
    fireEvent.keyDown(window, { key: 's', ctrlKey: true });
    await waitFor(() => expect(createRow).toHaveBeenCalledTimes(1));
    expect(createRow).toHaveBeenCalledWith('news', {
      title: 'Harbour',
      status: 'draft',
      published_at: '2025-03-04 10:20:30',
    });
    await waitFor(() => expect(window.location.pathname).toBe('/news/rows/r1'));
  });
});
