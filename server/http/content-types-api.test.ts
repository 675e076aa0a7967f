import { describe, expect } from 'vitest';
import type { ContentTypeSummary } from '../../common/api-contract.js';
import { runScenarios } from '../test-support/api-scenario.js';
import { refusedUnchanged } from '../test-support/hostile-http.js';
import { seedNews } from '../test-support/seed.js';

const NEWS_COLUMNS = [
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
      { id: 'archived', text: 'Archived' },
    ],
  },
  { name: 'published_at', label: 'Published at', type: 'datetime', required: true },
];

/** The columns as published: each with whether it can be filtered and ordered on. */
const NEWS_PUBLISHED = NEWS_COLUMNS.map((column) => ({ ...column, filterable: true, orderable: true }));

describe('GET /api/cms-content', () => {
  runScenarios([
    {
      name: 'lists the four starter types of a fresh database, without rows',
      url: '/cms-content',
      expectedStatus: 200,
      expect(body) {
        expect(body.count).toBe(4);
        const [news, categories, articles, menuItems] = body.content_types as ContentTypeSummary[];
        expect([articles.table, menuItems.table]).toEqual(['articles', 'menu_items']);
        expect(news).toEqual({
          content_type_id: 'news',
          type: 'collection',
          table: 'news',
          title: 'News',
          status: 'published',
          slug: 'news',
          columns: NEWS_PUBLISHED,
          custom: false,
          preview_path: null,
          title_column: 'title',
          search_columns: ['title', 'slug'],
          // The type's version, which its change and delete take as If-Match.
          version: expect.stringMatching(/^"[0-9a-f]{32}"$/),
        });
        expect(categories).toMatchObject({ table: 'categories', title: 'Categories', custom: false });
        expect(categories.columns.map((column) => [column.name, column.type])).toEqual([
          ['title', 'text'],
          ['slug', 'slug'],
        ]);
      },
    },
    { name: 'answers 405 to other methods', method: 'DELETE', url: '/cms-content', expectedStatus: 405 },
    {
      name: 'refuses an unknown query parameter, naming it',
      url: '/cms-content?bogus=1',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request', {
        also: (body) => expect(body.error.message).toMatch(/Unknown query parameter "bogus"/),
      }),
    },
    {
      name: 'refuses list parameters, which do not apply to the type list',
      url: '/cms-content?filter=title%3Dx&limit=1',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'accepts the _ cache-buster',
      url: '/cms-content?_=1712345678',
      expectedStatus: 200,
      expect: (body) => expect(body.count).toBe(4),
    },
  ]);
});

describe('query parameters on content-type writes', () => {
  const events = {
    title: 'Events',
    columns: [{ name: 'name', label: 'Name', type: 'text', required: true }],
  };
  runScenarios([
    {
      name: 'POST with an unknown query parameter is refused and creates nothing',
      method: 'POST',
      url: '/cms-content?draft=1',
      json: events,
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'PUT with an unknown query parameter is refused and changes nothing',
      method: 'PUT',
      url: '/cms-content/news?bogus=1',
      json: { title: 'Renamed' },
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request'),
    },
    {
      name: 'DELETE with a misspelt force is refused and deletes nothing',
      method: 'DELETE',
      url: '/cms-content/categories?forse=true',
      expectedStatus: 400,
      ...refusedUnchanged(400, 'bad_request', {
        also: (body) => expect(body.error.message).toMatch(/"forse"; use force/),
      }),
    },
    {
      name: 'POST with the _ cache-buster is served',
      method: 'POST',
      url: '/cms-content?_=1',
      json: events,
      expectedStatus: 201,
    },
    {
      name: 'DELETE with force and the _ cache-buster is served',
      method: 'DELETE',
      url: '/cms-content/events?force=true&_=1',
      expectedStatus: 200,
    },
  ]);
});

describe('GET /api/cms-content/:slug', () => {
  runScenarios([
    {
      name: 'describes the type with the spec fields, the derived title and search columns, and no rows when empty',
      url: '/cms-content/news',
      expectedStatus: 200,
      expect(body) {
        expect(Object.keys(body)).toEqual([
          'content_type_id',
          'type',
          'table',
          'title',
          'status',
          'slug',
          'columns',
          'custom',
          'title_column',
          'search_columns',
          'rows',
        ]);
        expect(body).toMatchObject({
          content_type_id: 'news',
          type: 'collection',
          table: 'news',
          title: 'News',
          slug: 'news',
          custom: false,
          rows: [],
        });
        expect(body.columns).toEqual(NEWS_PUBLISHED);
      },
    },
    {
      name: 'carries the type’s rows, to which the list parameters apply',
      url: '/cms-content/news?filter=status=published&order=title&limit=2',
      async before(server) {
        await seedNews(server, [
          { title: 'Charlie', status: 'published' },
          { title: 'Alpha', status: 'published' },
          { title: 'Bravo', status: 'draft' },
          { title: 'Beta', status: 'published' },
        ]);
      },
      expectedStatus: 200,
      expect(body) {
        expect(body.rows.map((row: { title: string }) => row.title)).toEqual(['Alpha', 'Beta']);
      },
    },
    {
      name: 'refuses invalid list parameters',
      url: '/cms-content/news?filter=nope=1',
      expectedStatus: 400,
      expectedContent: ['"code":"bad_request"'],
    },
    {
      name: 'answers 404 for an unknown slug',
      url: '/cms-content/nope',
      expectedStatus: 404,
      expectedContent: ['"code":"not_found"', 'nope'],
    },
  ]);
});
