import { render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { EditorApp } from '../app.js';
import { fakeApi, typeOf } from '../test-support/fake-api.js';

const CATEGORIES = typeOf('categories', [{ name: 'title', label: 'Title', type: 'text', required: true }]);

describe('the Content types screen: uploads no row uses', () => {
  beforeEach(() => window.history.replaceState(null, '', '/settings/content-types'));

  it('shows how many and how large, and the command that deletes them', async () => {
    const unusedMedia = vi.fn(async () => ({ count: 3, bytes: 2_400_000 }));
    render(<EditorApp client={fakeApi([CATEGORIES], { unusedMedia })} />);
    const note = await screen.findByText(/not used by any row/);
    expect(note.textContent).toBe(
      '3 uploads are not used by any row (2.4 MB). quire media prune lists them; quire media prune --yes deletes them.',
    );
    expect(unusedMedia).toHaveBeenCalledTimes(1);
  });

  it('says nothing when every upload is used, or when the count cannot be had', async () => {
    const used = vi.fn(async () => ({ count: 0, bytes: 0 }));
    const { unmount } = render(<EditorApp client={fakeApi([CATEGORIES], { unusedMedia: used })} />);
    await screen.findAllByRole('link', { name: 'Categories' });
    await waitFor(() => expect(used).toHaveBeenCalled());
    expect(screen.queryByText(/not used by any row/)).toBeNull();
    unmount();

    const failing = vi.fn(() => Promise.reject(new Error('offline')));
    render(<EditorApp client={fakeApi([CATEGORIES], { unusedMedia: failing })} />);
    await screen.findAllByRole('link', { name: 'Categories' });
    await waitFor(() => expect(failing).toHaveBeenCalled());
    expect(screen.queryByText(/not used by any row/)).toBeNull();
  });
});
