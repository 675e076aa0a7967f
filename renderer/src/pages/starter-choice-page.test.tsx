import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentTypeSummary, CreateContentTypeRequest } from '../../../common/api-contract.js';
import type { StartersResponse } from '../../../common/starter-contract.js';
import { ApiError } from '../api/api-error.js';
import { EditorApp } from '../app.js';
import { fakeApi, typeOf } from '../test-support/fake-api.js';

const TITLED = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'title' },
] as const;
const NEWS = typeOf('news', [...TITLED], { title: 'News' });
const ARTICLES = typeOf('articles', [...TITLED], { title: 'Articles' });
const POSTS = typeOf('posts', [...TITLED], { title: 'Posts' });

/** The server's answer on a new site with two starter types. */
function startersOf(overrides: Partial<StartersResponse> = {}): StartersResponse {
  return {
    choice: null,
    chosen_by: null,
    chosen_at: null,
    offer: true,
    starters: [
      { slug: 'news', title: 'News', table: 'news', rows: 0 },
      { slug: 'articles', title: 'Articles', table: 'articles', rows: 0 },
    ],
    sets: [
      {
        set: 'keep',
        title: 'Keep the starter types',
        description: 'A news site’s types.',
        types: [
          { slug: 'news', title: 'News' },
          { slug: 'articles', title: 'Articles' },
        ],
      },
      { set: 'empty', title: 'Start empty', description: 'No content types at all.', types: [] },
      {
        set: 'blog',
        title: 'Start a blog',
        description: 'Posts and authors.',
        types: [{ slug: 'posts', title: 'Posts' }],
      },
      { set: 'docs', title: 'Start a documentation site', description: 'Pages in sections.', types: [] },
    ],
    ...overrides,
  };
}

describe('the first screen of a new site', () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));

  it('names the starter types and offers each set, one sentence each, as headings and buttons', async () => {
    render(<EditorApp client={fakeApi([NEWS, ARTICLES], { starters: vi.fn(async () => startersOf()) })} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'How should this site start?' })).toBeTruthy();
    expect(screen.getByText(/2 starter content types, all still empty: News and Articles\./)).toBeTruthy();
    const sets = within(screen.getByRole('list', { name: 'Ways to start' })).getAllByRole('listitem');
    expect(sets.map((set) => within(set).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Keep the starter types',
      'Start empty',
      'Start a blog',
      'Start a documentation site',
    ]);
    expect(within(sets[2]).getByText('Posts and authors.')).toBeTruthy();
    expect(within(sets[2]).getByText('Content types: Posts.')).toBeTruthy();
    expect(within(sets[1]).getByRole('button', { name: 'Start empty' })).toBeTruthy();
    // The home screen stays: it does not move on to the first type while the choice is open.
    expect(window.location.pathname).toBe('/');
  });

  it('applies a choice, reloads the types and opens the first of the new ones', async () => {
    const user = userEvent.setup();
    let types: ContentTypeSummary[] = [NEWS, ARTICLES];
    const chooseStarters = vi.fn(async () => {
      types = [POSTS];
      return startersOf({
        choice: 'blog',
        offer: false,
        starters: [{ slug: 'posts', title: 'Posts', table: 'posts', rows: 0 }],
      });
    });
    const api = fakeApi([], { starters: vi.fn(async () => startersOf()), chooseStarters });
    api.listContentTypes = vi.fn(async () => types);
    render(<EditorApp client={api} />);
    await user.click(await screen.findByRole('button', { name: 'Use the blog types' }));
    expect(chooseStarters).toHaveBeenCalledWith('blog');
    await waitFor(() => expect(window.location.pathname).toBe('/posts'));
  });

  it('says clearly why a choice was refused, changing nothing on screen', async () => {
    const user = userEvent.setup();
    const chooseStarters = vi.fn(async () => {
      throw new ApiError(
        409,
        'conflict',
        'The starter types cannot be removed (Start empty): News (news) holds 2 rows',
      );
    });
    render(
      <EditorApp client={fakeApi([NEWS, ARTICLES], { starters: vi.fn(async () => startersOf()), chooseStarters })} />,
    );
    await user.click(await screen.findByRole('button', { name: 'Start empty' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'That start was not applied. The starter types cannot be removed (Start empty): News (news) holds 2 rows',
    );
    expect(window.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'Keep the starter types' })).toBeTruthy();
  });

  it('opens the first type as before once the choice was made, or when the server cannot say', async () => {
    const chosen = fakeApi([NEWS, ARTICLES], {
      starters: vi.fn(async () => startersOf({ offer: false, choice: 'keep' })),
    });
    const { unmount } = render(<EditorApp client={chosen} />);
    await waitFor(() => expect(window.location.pathname).toBe('/news'));
    unmount();
    window.history.replaceState(null, '', '/');
    // fakeApi's `starters` rejects: an older server without /api/starters.
    render(<EditorApp client={fakeApi([NEWS, ARTICLES])} />);
    await waitFor(() => expect(window.location.pathname).toBe('/news'));
  });
});

describe('a new type whose slug another type holds', () => {
  beforeEach(() => window.history.replaceState(null, '', '/settings/content-types/new'));

  const created = (body: CreateContentTypeRequest) =>
    typeOf(body.slug ?? '', body.columns, { title: body.title, table: body.table ?? '', custom: true });

  it('is named as the user types, with a link to the holder and a free slug to take with one click', async () => {
    const user = userEvent.setup();
    const createContentType = vi.fn(async (body: CreateContentTypeRequest) => created(body));
    render(<EditorApp client={fakeApi([NEWS, ARTICLES], { createContentType })} />);
    await user.type(await screen.findByLabelText('Title'), 'Articles');

    const slug = screen.getByLabelText('Slug');
    expect(slug.getAttribute('aria-invalid')).toBe('true');
    const message = document.getElementById('type-slug-error') as HTMLElement;
    expect(message.textContent).toBe('Slug is taken by the content type Articles; my-articles is free.');
    expect(within(message).getByRole('link', { name: 'Articles' }).getAttribute('href')).toBe(
      '/settings/content-types/edit/articles',
    );
    expect(createContentType).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Use “my-articles”' }));
    expect((slug as HTMLInputElement).value).toBe('my-articles');
    expect((screen.getByLabelText('Table') as HTMLInputElement).value).toBe('my_articles');
    expect(slug.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById('type-slug-error')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(createContentType).toHaveBeenCalledTimes(1));
    expect(createContentType.mock.calls[0][0]).toMatchObject({ title: 'Articles', slug: 'my-articles' });
    await waitFor(() => expect(window.location.pathname).toBe('/settings/content-types/edit/my-articles'));
  });

  it('is named from the server’s refusal when the editor has not loaded the holder', async () => {
    const user = userEvent.setup();
    const createContentType = vi.fn(async (body: CreateContentTypeRequest) => {
      if (body.slug === 'articles') {
        throw new ApiError(
          409,
          'conflict',
          'The slug articles is taken by the content type Articles (articles); the slug articles-2 is free',
          { slug: 'is taken by the content type Articles (articles); articles-2 is free' },
          [],
          { slug: { code: 'taken', type: 'articles', title: 'Articles', suggestion: 'articles-2' } },
        );
      }
      return created(body);
    });
    // Another editor made Articles after this one loaded the types.
    render(<EditorApp client={fakeApi([NEWS], { createContentType })} />);
    await user.type(await screen.findByLabelText('Title'), 'Articles');
    expect(document.getElementById('type-slug-error')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save content type' }));

    const slug = screen.getByLabelText('Slug');
    await waitFor(() => expect(slug.getAttribute('aria-invalid')).toBe('true'));
    const message = document.getElementById('type-slug-error') as HTMLElement;
    expect(message.textContent).toBe('Slug is taken by the content type Articles; articles-2 is free.');
    expect(within(message).getByRole('link', { name: 'Articles' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Use “articles-2”' }));
    expect((slug as HTMLInputElement).value).toBe('articles-2');
    await user.click(screen.getByRole('button', { name: 'Save content type' }));
    await waitFor(() => expect(createContentType).toHaveBeenCalledTimes(2));
    expect(createContentType.mock.calls[1][0]).toMatchObject({ slug: 'articles-2', table: 'articles_2' });
    await waitFor(() => expect(window.location.pathname).toBe('/settings/content-types/edit/articles-2'));
  });
});
