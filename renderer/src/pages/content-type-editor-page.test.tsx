import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  ContentTypeSummary,
  CreateContentTypeRequest,
  UpdateContentTypeRequest,
} from '../../../common/api-contract.js';
import { ApiError } from '../api/api-error.js';
import { EditorApp } from '../app.js';
import { fakeApi, typeOf } from '../test-support/fake-api.js';
import { chooseOption } from '../test-support/ui-controls.js';

const CATEGORIES = typeOf('categories', [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
]);

const group = (name: RegExp) => screen.getByRole('group', { name });
const exactLabel = (container: HTMLElement, label: string) =>
  within(container).getByLabelText(label, { selector: 'input, button' });

describe('the content-type editor', () => {
  beforeEach(() => window.history.replaceState(null, '', '/settings/content-types/new'));

  it('creates a type from the title, the starting fields and added ones, then opens it', async () => {
    const user = userEvent.setup();
    const createContentType = vi.fn(async (body: CreateContentTypeRequest) =>
      typeOf(body.slug ?? '', body.columns, { title: body.title, table: body.table ?? '', custom: true }),
    );
    render(<EditorApp client={fakeApi([CATEGORIES], { createContentType })} />);
    await user.type(await screen.findByLabelText('Title'), 'Recipes');
    expect((screen.getByLabelText('Slug') as HTMLInputElement).value).toBe('recipes');
    expect((screen.getByLabelText('Table') as HTMLInputElement).value).toBe('recipes');
    await user.type(screen.getByLabelText('Preview path'), 'http://localhost:4321/recipes/{{slug}');

    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const third = group(/^Field 3/);
    expect(document.activeElement).toBe(exactLabel(third, 'Field label'));
    await user.type(exactLabel(third, 'Field label'), 'Cooking time');
    await chooseOption(user, exactLabel(third, 'Field type'), 'Number');
    await user.click(exactLabel(third, 'Required'));

    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const fourth = group(/^Field 4/);
    await user.type(exactLabel(fourth, 'Field label'), 'Category');
    await chooseOption(user, exactLabel(fourth, 'Field type'), 'Relation');
    expect(exactLabel(fourth, 'Points to').textContent).toBe('Categories');

    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(createContentType).toHaveBeenCalledTimes(1));
    expect(createContentType).toHaveBeenCalledWith({
      title: 'Recipes',
      slug: 'recipes',
      table: 'recipes',
      type: 'collection',
      preview_path: 'http://localhost:4321/recipes/{slug}',
      columns: [
        { name: 'title', label: 'Title', type: 'text', required: true },
        { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
        { name: 'cooking_time', label: 'Cooking time', type: 'number', required: true },
        { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
      ],
    });
    await waitFor(() => expect(window.location.pathname).toBe('/settings/content-types/edit/recipes'));
    expect(await screen.findByRole('link', { name: 'Recipes' })).toBeTruthy();
  });

  it('shows the server’s problems next to the inputs they name', async () => {
    const user = userEvent.setup();
    const createContentType = vi.fn(async () => {
      throw new ApiError(400, 'validation_failed', 'Invalid input', {
        table: 'is reserved for Quire itself; pick another name',
        'columns[2].name': 'id is reserved; pick another name',
      });
    });
    render(<EditorApp client={fakeApi([], { createContentType })} />);
    await user.type(await screen.findByLabelText('Title'), 'Media');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await user.type(exactLabel(group(/^Field 3/), 'Field label'), 'Id');
    await user.click(screen.getByRole('button', { name: 'Save content type' }));

    const name = exactLabel(group(/^Field 3/), 'Field name');
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(name.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Field name id is reserved; pick another name',
    );
    expect(screen.getByText('Table is reserved for Quire itself; pick another name')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Fix the 2 highlighted problems');
    await user.type(name, '_code');
    expect(name.getAttribute('aria-invalid')).toBeNull();
  });
});

describe('editing a saved content type', () => {
  const MENU: ContentTypeSummary = typeOf('menu_items', [
    { name: 'title', label: 'Title', type: 'text', required: true },
    { name: 'url', label: 'URL', type: 'text', required: false },
    { name: 'position', label: 'Position', type: 'number', required: false },
  ]);
  beforeEach(() => window.history.replaceState(null, '', '/settings/content-types/edit/menu_items'));

  it('asks before removing a saved field, then sends the new list with moves and renames', async () => {
    const user = userEvent.setup();
    const updateContentType = vi.fn(async () => MENU);
    render(<EditorApp client={fakeApi([MENU], { updateContentType })} />);
    const url = await screen.findByRole('group', { name: 'Field 2: URL' });
    await user.click(within(url).getByRole('button', { name: 'Remove field' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Remove the field “URL”?' });
    expect(dialog.textContent).toContain('its data in every Menu_items row is lost');
    await user.click(within(dialog).getByRole('button', { name: 'Remove field' }));
    expect(screen.queryByRole('group', { name: /URL/ })).toBeNull();

    const position = group(/^Field 2: Position/);
    await user.click(within(position).getByRole('button', { name: 'Move up' }));
    const moved = group(/^Field 1: Position/);
    expect(document.activeElement).toBe(within(moved).getByRole('button', { name: 'Move up' }));
    await user.clear(exactLabel(moved, 'Field name'));
    await user.type(exactLabel(moved, 'Field name'), 'rank');
    expect((exactLabel(moved, 'Field type') as HTMLSelectElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(updateContentType).toHaveBeenCalledTimes(1));
    expect(updateContentType).toHaveBeenCalledWith(
      'menu_items',
      {
        title: 'Menu_items',
        type: 'collection',
        preview_path: null,
        columns: [
          { name: 'rank', label: 'Position', type: 'number', required: false, from: 'position' },
          { name: 'title', label: 'Title', type: 'text', required: true },
        ],
      },
      // A type listed without its version is changed without If-Match.
      undefined,
    );
  });

  it('on a 412 says who changed the type, and Reload loads theirs while keeping this person’s changes', async () => {
    const user = userEvent.setup();
    const opened = { ...MENU, version: '"v1"' };
    const theirs: ContentTypeSummary = {
      ...typeOf('menu_items', [
        { name: 'title', label: 'Heading', type: 'text', required: true },
        { name: 'url', label: 'URL', type: 'text', required: false },
        { name: 'position', label: 'Position', type: 'number', required: false },
      ]),
      title: 'Menu',
    };
    const updateContentType = vi.fn(
      async (_slug: string, _body: UpdateContentTypeRequest, _ifMatch?: string): Promise<ContentTypeSummary> => {
        const stale = new ApiError(412, 'stale_write', 'Changed since it was read');
        stale.stale = {
          current: theirs,
          etag: '"v2"',
          lastChange: { action: 'update', by: 'ada', at: '2026-01-02 03:04:05.000000', fields: ['title'] },
        };
        throw stale;
      },
    );
    render(<EditorApp client={fakeApi([opened], { updateContentType })} />);
    const url = await screen.findByRole('group', { name: 'Field 2: URL' });
    await user.clear(exactLabel(url, 'Field label'));
    await user.type(exactLabel(url, 'Field label'), 'Link');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await user.type(exactLabel(group(/^Field 4/), 'Field label'), 'Icon');

    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(updateContentType).toHaveBeenCalledTimes(1));
    expect(updateContentType.mock.calls[0]?.[2]).toBe('"v1"');
    const notice = await screen.findByText('Someone else changed this content type');
    const alert = notice.closest('[role="alert"]') as HTMLElement;
    expect(alert.textContent).toContain('ada changed it');
    // Until Reload, this person's edits stay in the form.
    expect(screen.getByRole('group', { name: 'Field 2: Link' })).toBeTruthy();

    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Menu');
    expect(screen.getByRole('group', { name: 'Field 2: URL' })).toBeTruthy();
    expect(screen.queryByRole('group', { name: /^Field 4/ })).toBeNull();
    const kept = screen.getByRole('list', { name: 'Your unsaved changes' });
    expect(
      within(kept)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Field “Link” (changed)', 'Field “Icon” (added)']);

    await user.click(screen.getByRole('button', { name: 'Re-apply my changes' }));
    expect(screen.getByRole('group', { name: 'Field 1: Heading' })).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Field 2: Link' })).toBeTruthy();
    expect(screen.getByRole('group', { name: /^Field 4: Icon/ })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Your unsaved changes' })).toBeTruthy();

    updateContentType.mockImplementationOnce(async () => ({ ...theirs, version: '"v3"' }));
    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(updateContentType).toHaveBeenCalledTimes(2));
    expect(updateContentType.mock.calls[1]?.[2]).toBe('"v2"');
    expect(updateContentType.mock.calls[1]?.[1]).toMatchObject({
      title: 'Menu',
      columns: [
        { name: 'title', label: 'Heading' },
        { name: 'url', label: 'Link' },
        { name: 'position', label: 'Position' },
        { name: 'icon', label: 'Icon' },
      ],
    });
  });

  it('on a 412 to a delete of a type someone else deleted, says so and keeps the form', async () => {
    const user = userEvent.setup();
    const deleteContentType = vi.fn(
      async (_slug: string, _options?: { force?: boolean; ifMatch?: string }): Promise<ContentTypeSummary> => {
        const stale = new ApiError(412, 'stale_write', 'Changed since it was read');
        stale.stale = { current: null, etag: null, lastChange: null };
        throw stale;
      },
    );
    render(<EditorApp client={fakeApi([{ ...MENU, version: '"v1"' }], { deleteContentType })} />);
    await screen.findByRole('group', { name: 'Field 2: URL' });
    await user.click(screen.getByRole('button', { name: 'Delete content type' }));
    const dialog = await screen.findByRole('alertdialog', { name: /Delete the content type/ });
    await user.click(await within(dialog).findByRole('button', { name: /^Delete content type/ }));
    await waitFor(() => expect(deleteContentType).toHaveBeenCalledTimes(1));
    expect(deleteContentType.mock.calls[0]?.[1]).toEqual({ force: false, ifMatch: '"v1"' });
    const notice = await screen.findByText('This content type was deleted');
    expect(notice.closest('[role="alert"]')?.textContent).toContain('Someone else deleted it');
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
    expect(screen.getByRole('group', { name: 'Field 2: URL' })).toBeTruthy();
  });
});
