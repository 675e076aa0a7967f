import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiDocument } from '../api/api-document.js';
import { curlLine, operationsFor, shortType } from '../api/api-document.js';
import { EditorApp } from '../app.js';
import { fakeApi, typeOf } from '../test-support/fake-api.js';
import { chooseOption } from '../test-support/ui-controls.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const NEWS_STATUS = { type: 'string', enum: ['draft', 'published'], description: 'One of: draft, published' };

/** A document in the shape the server makes (see server/openapi), cut down to one type. */
const DOCUMENT: ApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Quire content API', version: '0.1.0' },
  'x-quire-content-types': [
    { table: 'news', slug: 'news', title: 'News', name: 'News' },
    { table: 'categories', slug: 'categories', title: 'Categories', name: 'Category' },
  ],
  paths: {
    '/cms/news': {
      get: {
        summary: 'List rows of News',
        parameters: [
          {
            name: 'filter',
            in: 'query',
            description: 'field=value',
            schema: { type: 'array', items: { type: 'string' } },
          },
          { name: 'limit', in: 'query', description: 'Most rows', schema: { type: 'integer' } },
        ],
        responses: { '200': {}, '400': {} },
      },
      post: {
        summary: 'Create a row of News',
        requestBody: { content: { 'application/json': { schema: ref('NewsInput') } } },
        responses: { '201': {}, '400': {} },
      },
    },
    '/cms/news/{id}': {
      get: { summary: 'Get one row of News', responses: { '200': {}, '404': {} } },
      delete: { summary: 'Delete a row of News', responses: { '200': {}, '409': {} } },
    },
    '/cms/categories': { get: { summary: 'List rows of Categories', responses: { '200': {} } } },
    '/openapi.json': { get: { summary: 'This document', responses: { '200': {} } } },
  },
  components: {
    schemas: {
      News: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          title: { type: 'string', title: 'Title' },
          status: NEWS_STATUS,
          tags: { type: 'array', items: { type: 'string' } },
          category: { anyOf: [{ type: 'object', properties: { id: {}, title: {}, slug: {} } }, { type: 'null' }] },
        },
        required: ['id', 'title', 'status', 'tags', 'category'],
      },
      NewsInput: {
        type: 'object',
        properties: {
          title: { type: 'string' },
          status: NEWS_STATUS,
          published_at: { type: 'string', examples: ['2026-01-31 09:30:00'] },
        },
        required: ['title', 'status', 'published_at'],
      },
      Category: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    },
  },
};

describe('reading the API document', () => {
  it('gives short types for schemas', () => {
    expect(shortType(NEWS_STATUS)).toBe('"draft" | "published"');
    expect(shortType({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(shortType({ anyOf: [{ type: 'number' }, { type: 'null' }] })).toBe('number | null');
    expect(shortType(ref('SeoMeta'))).toBe('SeoMeta');
  });

  it('makes a curl line per operation, with an example body and the token only where needed', () => {
    const [list, create, get, remove] = operationsFor(DOCUMENT, 'news');
    const options = { apiBase: 'http://127.0.0.1:4780/api', withToken: false };
    expect(curlLine(DOCUMENT, list, options)).toBe("curl 'http://127.0.0.1:4780/api/cms/news?limit=10'");
    expect(curlLine(DOCUMENT, get, options)).toBe("curl 'http://127.0.0.1:4780/api/cms/news/ID'");
    expect(curlLine(DOCUMENT, remove, { ...options, withToken: true })).toBe(
      `curl -X DELETE 'http://127.0.0.1:4780/api/cms/news/ID' -H "Authorization: Bearer $QUIRE_TOKEN"`,
    );
    expect(curlLine(DOCUMENT, create, options)).toBe(
      `curl -X POST 'http://127.0.0.1:4780/api/cms/news' -H 'Content-Type: application/json' -d '{"title":"Example","status":"draft","published_at":"2026-01-31 09:30:00"}'`,
    );
  });
});

describe('Settings › API', () => {
  beforeEach(() => window.history.replaceState(null, '', '/settings/api'));

  it('shows the selected type’s operations with copyable curl lines, and its fields', async () => {
    const apiDocument = vi.fn(async () => DOCUMENT);
    const types = [typeOf('news', []), typeOf('categories', [])];
    render(<EditorApp client={fakeApi(types, { apiDocument })} />);
    const news = await screen.findByRole('region', { name: 'News' });
    const operations = within(news).getAllByRole('article');
    expect(operations.map((operation) => operation.querySelector('h3')?.textContent)).toEqual([
      'GET/api/cms/newsList rows of News',
      'POST/api/cms/newsCreate a row of News',
      'GET/api/cms/news/{id}Get one row of News',
      'DELETE/api/cms/news/{id}Delete a row of News',
    ]);
    expect(within(news).getByText(/^curl -X POST/).textContent).toContain('"status":"draft"');
    const fields = screen.getByRole('region', { name: 'A row of News (News)' });
    expect(within(fields).getByText('"draft" | "published"')).toBeTruthy();

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await userEvent.click(within(operations[0]).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(`curl '${window.location.origin}/api/cms/news?limit=10'`);

    await chooseOption(userEvent.setup(), screen.getByRole('combobox', { name: 'Content type' }), 'Categories');
    expect(await screen.findByRole('region', { name: 'Categories' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'News' })).toBeNull();
    expect(screen.getByRole('link', { name: 'API' }).getAttribute('aria-current')).toBe('page');
  });

  it('says so when the document cannot be loaded', async () => {
    const apiDocument = vi.fn(() => Promise.reject(new Error('offline')));
    render(<EditorApp client={fakeApi([typeOf('news', [])], { apiDocument })} />);
    expect(await screen.findByText('Couldn’t load the API description')).toBeTruthy();
  });
});
