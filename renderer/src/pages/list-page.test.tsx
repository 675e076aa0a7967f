import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EditorApp } from '../app.js';
import { fakeApi, listOf, rowOf, typeOf } from '../test-support/fake-api.js';

const NEWS = typeOf('news', [{ name: 'title', label: 'Title', type: 'text', required: true }]);

describe('the list page', () => {
  beforeEach(() => window.history.replaceState(null, '', '/news'));
  afterEach(() => vi.useRealTimers());

  it('keeps the search when a sort is clicked before the page draws again after it', async () => {
    const rows = [rowOf({ id: 'a', title: 'Harbour' }), rowOf({ id: 'b', title: 'Quay' })];
    render(<EditorApp client={fakeApi([NEWS], { listRows: async () => listOf(rows) })} />);
    const sort = within(await screen.findByRole('columnheader', { name: 'Title' })).getByRole('button');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    act(() => {
      fireEvent.change(screen.getByLabelText('Search', { exact: true }), { target: { value: 'bulletin' } });
    });
    // The search runs from its timer; the click comes before React has drawn the page it asked for.
    act(() => {
      vi.advanceTimersByTime(1_000);
      fireEvent.click(sort);
    });
    const params = new URL(window.location.href).searchParams;
    expect(params.get('q')).toBe('bulletin');
    expect(params.get('order')).toBe('title');
  });
});
