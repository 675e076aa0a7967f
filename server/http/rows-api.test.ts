import { describe, expect } from 'vitest';
import type { ContentRow } from '../../common/api-contract.js';
import { runScenarios } from '../test-support/api-scenario.js';
import { addContentType, countRows, seedNews } from '../test-support/seed.js';

const ROW_KEYS = [
  'id',
  'title',
  'slug',
  'status',
  'published_at',
  'meta',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/;
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const form = { title: 'Über Café opens', status: 'published', published_at: '2025-03-04 05:06:07' };

describe('POST /api/cms/:type creates a row', () => {
  runScenarios([
    {
      name: 'from a form body, answering 201 with the id and the whole row',
      method: 'POST',
      url: '/cms/news',
      body: form,
      expectedStatus: 201,
      expect(body, response) {
        expect(Object.keys(body)).toEqual(['id', 'rows']);
        const [row] = body.rows as ContentRow[];
        expect(Object.keys(row)).toEqual(ROW_KEYS);
        expect(row).toMatchObject({
          id: body.id,
          title: 'Über Café opens',
          slug: 'uber-cafe-opens',
          status: 'published',
          published_at: '2025-03-04 05:06:07',
          meta: null,
          created_by: 'tester',
          updated_by: 'tester',
        });
        expect(body.id).toMatch(UUID_V7);
        expect(row.created_at).toMatch(TIMESTAMP);
        expect(row.updated_at).toBe(row.created_at);
        expect(response.headers.get('location')).toBe(`/api/cms/news/${body.id}`);
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      },
    },
    {
      name: 'from a JSON body',
      method: 'POST',
      url: '/cms/news',
      json: { ...form, title: 'From JSON', meta: { title: 'SEO title' } },
      expectedStatus: 201,
      expect(body) {
        expect(body.rows[0]).toMatchObject({
          title: 'From JSON',
          slug: 'from-json',
          meta: { title: 'SEO title', description: '', keywords: '' },
        });
      },
    },
    {
      name: 'with the id given in the path',
      method: 'POST',
      url: '/cms/news/hand-picked-id',
      body: form,
      expectedStatus: 201,
      expect(body) {
        expect(body.id).toBe('hand-picked-id');
        expect(body.rows[0].id).toBe('hand-picked-id');
      },
    },
    {
      name: 'refusing an id that is already taken with 409, changing nothing',
      method: 'POST',
      url: '/cms/news/hand-picked-id',
      body: { ...form, title: 'Another' },
      expectedStatus: 409,
      async expect(body, _response, server) {
        expect(body.error).toMatchObject({ status: 409, code: 'conflict', fields: { id: 'is already taken' } });
        const stored = await server.services.rows.get(
          server.services.registry.requireByTable('news'),
          'hand-picked-id',
        );
        expect(stored.row.title).toBe('Über Café opens');
      },
    },
    {
      name: 'refusing an id with characters that do not belong in a URL',
      method: 'POST',
      url: '/cms/news/bad%20id',
      body: form,
      expectedStatus: 400,
      expectedContent: ['"id"'],
    },
    {
      name: 'accepting publish_at as another name for published_at',
      method: 'POST',
      url: '/cms/news',
      body: { title: 'Alias', status: 'draft', publish_at: '2024-12-31 23:59:59' },
      expectedStatus: 201,
      expect(body) {
        expect(body.rows[0].published_at).toBe('2024-12-31 23:59:59');
      },
    },
    {
      name: 'ignoring system fields sent in the body',
      method: 'POST',
      url: '/cms/news',
      body: { ...form, title: 'System', created_at: '1999-01-01', created_by: 'mallory', updated_by: 'x' },
      expectedStatus: 201,
      expect(body) {
        expect(body.rows[0].created_by).toBe('tester');
        expect(body.rows[0].created_at).not.toContain('1999');
      },
    },
    {
      name: 'naming every invalid field in a 400, writing nothing',
      method: 'POST',
      url: '/cms/news',
      body: { title: '', status: 'live', published_at: '2025-02-30 10:00:00', colour: 'red' },
      expectedStatus: 400,
      async expect(body, _response, server) {
        expect(body.error).toEqual({
          status: 400,
          code: 'validation_failed',
          message: expect.stringContaining('title is required'),
          fields: {
            title: 'is required',
            status: 'must be one of draft, published, archived',
            published_at: 'must be a real date and time in the format YYYY-MM-DD HH:MM:SS',
            colour: 'is not a field of news',
          },
          // The same problems as data, for programs (no client parses the sentences).
          problems: {
            title: { code: 'required' },
            status: { code: 'not_an_option', options: ['draft', 'published', 'archived'] },
            published_at: { code: 'not_a_datetime' },
            colour: { code: 'not_a_field', table: 'news' },
          },
        });
        expect(await countRows(server, 'news')).toBe(5);
      },
    },
    {
      name: 'refusing a field sent twice',
      method: 'POST',
      url: '/cms/news',
      body: 'title=a&title=b&status=draft&published_at=2025-01-01%2010:00:00',
      expectedStatus: 400,
      expectedContent: ['"title":"was sent more than once"'],
    },
    {
      name: 'storing SQL text verbatim',
      method: 'POST',
      url: '/cms/news',
      body: { ...form, title: "x'); DROP TABLE news; --" },
      expectedStatus: 201,
      async expect(body, _response, server) {
        expect(body.rows[0].title).toBe("x'); DROP TABLE news; --");
        expect(await countRows(server, 'news')).toBe(6);
      },
    },
    {
      name: 'answering 404 for a type that does not exist',
      method: 'POST',
      url: '/cms/nope',
      body: form,
      expectedStatus: 404,
      expectedContent: ['"code":"not_found"'],
    },
  ]);
});

describe('optional columns', () => {
  runScenarios([
    {
      name: 'store an empty form value as null',
      method: 'POST',
      url: '/cms/events',
      body: { name: 'Launch', venue: '' },
      before: (server) =>
        addContentType(server, 'events', [
          { name: 'name', label: 'Name', type: 'text', required: true },
          { name: 'venue', label: 'Venue', type: 'text', required: false },
        ]),
      expectedStatus: 201,
      expect(body) {
        expect(body.rows[0]).toMatchObject({ name: 'Launch', venue: null, meta: null });
      },
    },
  ]);
});

describe('GET /api/cms/:type/:id reads one row', () => {
  let created: ContentRow[] = [];
  runScenarios([
    {
      name: 'as the list shape with the row and the page meta',
      url: '/cms/news/seeded-1',
      async before(server) {
        created = await seedNews(server, [{ title: 'Seeded', status: 'published' }, { title: 'Other' }]);
        await server.services.rows.create(
          server.services.registry.requireByTable('news'),
          { ...form, title: 'With meta', meta: { description: 'About it' } },
          'seeded-1',
        );
      },
      expectedStatus: 200,
      expect(body, response) {
        expect(Object.keys(body).sort()).toEqual(
          [
            'columns',
            'count',
            'custom',
            'filtered',
            'filters',
            'meta',
            'pk',
            'preview_path',
            'rows',
            'time',
            'total',
          ].sort(),
        );
        expect(body).toMatchObject({
          total: 3,
          filtered: 1,
          count: 1,
          pk: 'id',
          filters: [],
          preview_path: null,
          custom: false,
        });
        expect(body.rows).toHaveLength(1);
        expect(body.rows[0]).toMatchObject({ id: 'seeded-1', title: 'With meta' });
        expect(body.meta).toEqual({ title: 'With meta', description: 'About it', keywords: '' });
        expect(body.columns.map((column: { name: string }) => column.name)).toEqual([
          'title',
          'slug',
          'status',
          'published_at',
        ]);
        expect(Object.keys(body.time).sort()).toEqual(['count', 'data', 'filter', 'format', 'init', 'total']);
        expect(response.headers.get('server-timing')).toMatch(/^total;dur=[\d.]+, init;dur=/);
      },
    },
    {
      name: 'with page meta falling back to the row title when the row has no meta',
      url: '/cms/news/placeholder',
      async before(server) {
        await server.services.rows.create(
          server.services.registry.requireByTable('news'),
          { ...form, title: 'Plain' },
          'placeholder',
        );
      },
      expectedStatus: 200,
      expect(body) {
        expect(body.rows[0].meta).toBeNull();
        expect(body.meta).toEqual({ title: 'Plain', description: '', keywords: '' });
        expect(created).toHaveLength(2);
      },
    },
    {
      name: 'answering 404 for an unknown id',
      url: '/cms/news/missing',
      expectedStatus: 404,
      expectedContent: ['missing'],
    },
  ]);
});

describe('PUT /api/cms/:type/:id updates a row', () => {
  runScenarios([
    {
      name: 'changing only the fields sent and returning the row itself',
      method: 'PUT',
      url: '/cms/news/row-1',
      body: { status: 'archived' },
      async before(server) {
        await server.services.rows.create(server.services.registry.requireByTable('news'), form, 'row-1');
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
      expectedStatus: 200,
      expect(body) {
        expect(Object.keys(body)).toEqual(ROW_KEYS);
        expect(body).toMatchObject({
          id: 'row-1',
          title: form.title,
          slug: 'uber-cafe-opens',
          status: 'archived',
          published_at: form.published_at,
        });
        expect(body.updated_at > body.created_at).toBe(true);
        expect(body.updated_by).toBe('tester');
      },
    },
    {
      name: 'keeping the slug when the title changes (links stay valid)',
      method: 'PUT',
      url: '/cms/news/row-1',
      body: { title: 'Renamed' },
      expectedStatus: 200,
      expect(body) {
        expect(body).toMatchObject({ title: 'Renamed', slug: 'uber-cafe-opens' });
      },
    },
    {
      name: 'regenerating the slug from the title when the slug is sent empty',
      method: 'PUT',
      url: '/cms/news/row-1',
      body: { slug: '' },
      expectedStatus: 200,
      expect(body) {
        expect(body.slug).toBe('renamed');
      },
    },
    {
      name: 'accepting a JSON body and PATCH as well',
      method: 'PATCH',
      url: '/cms/news/row-1',
      json: { published_at: '2026-01-01T08:00' },
      expectedStatus: 200,
      expect(body) {
        expect(body.published_at).toBe('2026-01-01 08:00:00');
      },
    },
    {
      name: 'refusing unknown fields with 400 and changing nothing',
      method: 'PUT',
      url: '/cms/news/row-1',
      body: { title: 'Changed', nope: '1' },
      expectedStatus: 400,
      async expect(body, _response, server) {
        expect(body.error.fields).toEqual({ nope: 'is not a field of news' });
        const stored = await server.services.rows.get(server.services.registry.requireByTable('news'), 'row-1');
        expect(stored.row.title).toBe('Renamed');
      },
    },
    {
      name: 'refusing to clear a required field',
      method: 'PUT',
      url: '/cms/news/row-1',
      body: { status: '' },
      expectedStatus: 400,
      expectedContent: ['"status":"is required"'],
    },
    {
      name: 'answering 404 for an unknown row',
      method: 'PUT',
      url: '/cms/news/missing',
      body: { title: 'x' },
      expectedStatus: 404,
    },
  ]);
});

describe('DELETE /api/cms/:type/:id deletes a row', () => {
  runScenarios([
    {
      name: 'returning its fields and rowCount 1',
      method: 'DELETE',
      url: '/cms/news/doomed',
      async before(server) {
        await server.services.rows.create(server.services.registry.requireByTable('news'), form, 'doomed');
      },
      expectedStatus: 200,
      async expect(body, _response, server) {
        expect(Object.keys(body)).toEqual([...ROW_KEYS, 'rowCount']);
        expect(body).toMatchObject({ id: 'doomed', title: form.title, rowCount: 1 });
        expect(await countRows(server, 'news')).toBe(0);
      },
    },
    { name: 'answering 404 once it is gone', url: '/cms/news/doomed', expectedStatus: 404 },
    { name: 'answering 404 when deleting it again', method: 'DELETE', url: '/cms/news/doomed', expectedStatus: 404 },
  ]);
});
