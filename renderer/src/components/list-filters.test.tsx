import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListQuery } from '../../../common/api-contract.js';
import { parseFilterText } from '../../../common/filter-syntax.js';
import { EditorApp } from '../app.js';
import { choicesOf, choicesValue, filterParams } from '../schema/list-filters.js';
import { fakeApi, listOf, rowOf, typeOf } from '../test-support/fake-api.js';
import { chooseOption, toggleChoices } from '../test-support/ui-controls.js';

const CATEGORIES = typeOf('categories', [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', parent: 'title', required: false },
]);
const EVENTS = typeOf('events', [
  { name: 'title', label: 'Title', type: 'text', required: true },
  {
    name: 'status',
    label: 'Status',
    type: 'select',
    required: false,
    options: [
      { id: 'draft', text: 'Draft' },
      { id: 'published', text: 'Published' },
      { id: 'a|b', text: 'Piped' },
    ],
  },
  { name: 'starts_at', label: 'Starts at', type: 'datetime', required: false },
  { name: 'featured', label: 'Featured', type: 'boolean', required: false },
  { name: 'category', label: 'Category', type: 'relation', target: 'categories', required: false },
  { name: 'tags', label: 'Tags', type: 'tags', required: false },
]);

describe('filterParams: the list state as filter parameters', () => {
  it('sends one status as equality, several as :in=, and escapes a | inside an option id', () => {
    expect(filterParams(EVENTS, { status: 'draft' })).toEqual(['status=draft']);
    expect(filterParams(EVENTS, { status: choicesValue(['draft', 'a|b']) })).toEqual(['status:in=draft|a\\|b']);
    expect(choicesOf(choicesValue(['draft', 'a|b']))).toEqual(['draft', 'a|b']);
    // Whatever is sent reads back as the server will read it.
    const [sent] = filterParams(EVENTS, { status: choicesValue(['draft', 'a|b']) });
    expect(parseFilterText(sent)).toMatchObject({ ok: true, filter: { operator: 'in', values: ['draft', 'a|b'] } });
  });

  it('sends a day range on a datetime column as two comparisons that take in the last day whole', () => {
    expect(filterParams(EVENTS, { 'starts_at.from': '2025-01-01', 'starts_at.to': '2025-01-31' })).toEqual([
      'starts_at>=2025-01-01 00:00:00',
      'starts_at<=2025-01-31 23:59:59',
    ]);
    expect(filterParams(EVENTS, { 'starts_at.to': '2025-01-31' })).toEqual(['starts_at<=2025-01-31 23:59:59']);
  });

  it("sends yes/no, and a relation by its target's slug or id", () => {
    expect(filterParams(EVENTS, { featured: 'false' })).toEqual(['featured=false']);
    expect(filterParams(EVENTS, { category: 'slug:culture' })).toEqual(['category.slug=culture']);
    expect(filterParams(EVENTS, { category: 'id:01ab' })).toEqual(['category=01ab']);
  });

  it('leaves out what no control could have set', () => {
    expect(
      filterParams(EVENTS, {
        status: 'live',
        featured: 'maybe',
        'starts_at.from': 'yesterday',
        tags: 'x',
        title: 'x',
      }),
    ).toEqual([]);
  });
});

describe('the list toolbar filters', () => {
  beforeEach(() => window.history.replaceState(null, '', '/events'));

  const lastFilter = (listRows: ReturnType<typeof vi.fn>) => {
    const calls = listRows.mock.calls.filter(([table]) => table === 'events');
    return (calls.at(-1)?.[1] as ListQuery | undefined)?.filter;
  };

  it('offers several statuses, yes/no, a date range and a related row, and sends what is picked', async () => {
    const listRows = vi.fn(async (table: string) =>
      table === 'categories'
        ? listOf([
            rowOf({ id: 'c1', title: 'Culture', slug: 'culture' }),
            rowOf({ id: 'c2', title: 'Sport', slug: 'sport' }),
          ])
        : listOf([rowOf({ id: 'e1', title: 'Harbour fest' })]),
    );
    render(<EditorApp client={fakeApi([CATEGORIES, EVENTS], { listRows })} />);

    const user = userEvent.setup();
    const status = await screen.findByLabelText('Status');
    expect(status.textContent).toBe('All');
    await toggleChoices(user, status, ['Draft', 'Published']);
    expect(status.textContent).toBe('Draft, Published');
    await waitFor(() => expect(lastFilter(listRows)).toEqual(['status:in=draft|published']));
    expect(new URLSearchParams(window.location.search).get('f.status')).toBe('draft|published');

    await chooseOption(user, screen.getByLabelText('Featured'), 'Yes');
    fireEvent.change(screen.getByLabelText('Starts at from'), { target: { value: '2025-06-01' } });
    fireEvent.change(screen.getByLabelText('Starts at to'), { target: { value: '2025-06-30' } });
    await chooseOption(user, screen.getByLabelText('Category'), 'Sport');
    await waitFor(() =>
      expect(lastFilter(listRows)).toEqual([
        'status:in=draft|published',
        'starts_at>=2025-06-01 00:00:00',
        'starts_at<=2025-06-30 23:59:59',
        'featured=true',
        'category.slug=sport',
      ]),
    );
    // Tags have no control here: membership is typed, not picked.
    expect(screen.queryByLabelText('Tags')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(lastFilter(listRows)).toEqual([]));
    expect(screen.getByLabelText('Featured').textContent).toBe('All');
    expect(screen.getByLabelText('Status').textContent).toBe('All');
  });

  it('reads the filters of a link', async () => {
    window.history.replaceState(
      null,
      '',
      '/events?f.status=published&f.starts_at.from=2025-01-01&f.category=slug:culture',
    );
    const listRows = vi.fn(async () => listOf([]));
    render(<EditorApp client={fakeApi([CATEGORIES, EVENTS], { listRows })} />);
    await waitFor(() =>
      expect(lastFilter(listRows)).toEqual([
        'status=published',
        'starts_at>=2025-01-01 00:00:00',
        'category.slug=culture',
      ]),
    );
    expect(((await screen.findByLabelText('Starts at from')) as HTMLInputElement).value).toBe('2025-01-01');
    // No category rows arrive here, so the link's choice shows by its slug.
    expect(screen.getByLabelText('Category').textContent).toBe('culture');
    expect(screen.getByLabelText('Status').textContent).toBe('Published');
  });
});
