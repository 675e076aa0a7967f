import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { openDatabase } from '../db/database.js';
import { request } from '../test-support/api-scenario.js';
import { blocksColumn, blockType } from '../test-support/block-columns.js';
import { openApiProblems, ResponseChecker } from '../test-support/openapi-responses.js';
import { pngImage } from '../test-support/sample-images.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';
import type { OpenApiDocument } from './openapi-document.js';

/** A content type with one column of every column type. */
const EVENT_COLUMNS = [
  { name: 'name', label: 'Name', type: 'text', required: true },
  { name: 'slug', label: 'Slug', type: 'slug', required: true, parent: 'name' },
  {
    name: 'stage',
    label: 'Stage',
    type: 'select',
    required: true,
    options: [
      { id: 'planned', text: 'Planned' },
      { id: 'held', text: 'Held' },
    ],
  },
  { name: 'starts_at', label: 'Starts', type: 'datetime', required: true },
  { name: 'summary', label: 'Summary', type: 'textarea', required: false },
  { name: 'body', label: 'Body', type: 'markdown', required: false },
  { name: 'seats', label: 'Seats', type: 'number', required: false },
  { name: 'free', label: 'Free', type: 'boolean', required: false },
  { name: 'day', label: 'Day', type: 'date', required: false },
  { name: 'poster', label: 'Poster', type: 'image', required: false },
  { name: 'tags', label: 'Tags', type: 'tags', required: false },
  { name: 'category', label: 'Category', type: 'relation', required: false, target: 'categories' },
];

let server: TestServer;
let checker: ResponseChecker;
let document: OpenApiDocument;

/** Sends a request and checks its answer against the document; returns the answer. */
async function call(method: string, path: string, options: Parameters<typeof request>[3] = {}) {
  const answer = await request(server, method, path, options);
  expect(checker.problems(method, path, answer.response.status, answer.body)).toEqual([]);
  return answer;
}

async function fetchDocument(): Promise<OpenApiDocument> {
  const { response, body } = await request(server, 'GET', '/openapi.json');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  return body;
}

beforeAll(async () => {
  server = await startTestServer();
  const created = await request(server, 'POST', '/cms-content', { json: { title: 'Events', columns: EVENT_COLUMNS } });
  expect(created.response.status, created.text).toBe(201);
  document = await fetchDocument();
  checker = new ResponseChecker(document);
});
afterAll(() => server.dispose());

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    expect(await openApiProblems(document)).toEqual([]);
    // The validator does look: a document without its info, or with a response missing its description, fails.
    const { info: _info, ...withoutInfo } = document;
    expect(await openApiProblems(withoutInfo as OpenApiDocument)).not.toEqual([]);
    const broken = structuredClone(document) as any;
    delete broken.paths['/cms/events'].get.responses['200'].description;
    expect(await openApiProblems(broken)).not.toEqual([]);
  });

  it('describes every endpoint, with each content type’s own paths', () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/cms-content',
        '/cms-content/{slug}',
        '/uploads',
        '/media/unused',
        '/openapi.json',
        '/types.d.ts',
        '/cms/news',
        '/cms/news/{id}',
        '/cms/events',
        '/cms/events/{id}',
        '/cms/articles',
        '/cms/categories/{id}',
      ]),
    );
    const item = document.paths['/cms/events/{id}'] as Record<string, unknown>;
    expect(Object.keys(item)).toEqual(expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']));
    const list = document.paths['/cms/events'] as any;
    const parameters = list.get.parameters.map((parameter: { name: string }) => parameter.name);
    expect(parameters).toEqual(['filter', 'limit', 'offset', 'order', 'desc', 'If-None-Match']);
    // Every GET under /api can be revalidated: ETag on the 200, 304 for a current tag.
    expect(Object.keys(list.get.responses['200'].headers)).toEqual(['ETag', 'Cache-Control']);
    expect(list.get.responses['304']).toEqual({ $ref: '#/components/responses/NotModified' });
    expect(item.get).toMatchObject({ responses: { '304': { $ref: '#/components/responses/NotModified' } } });
    const order = list.get.parameters.find((parameter: { name: string }) => parameter.name === 'order');
    // Tags cannot be ordered on; the system fields can.
    expect(order.schema.enum).toContain('starts_at');
    expect(order.schema.enum).toContain('updated_at');
    expect(order.schema.enum).not.toContain('tags');
  });

  it('documents every route the server has, with each of its methods', async () => {
    // The app as the server builds it (over a SQLite file, so the upload routes are there).
    const database = await openDatabase(join(server.dir, 'routes.sqlite'));
    try {
      const { app } = await createApp({ database, editorName: null, log: () => {} });
      const routes = routesOf((app as unknown as { router: RouterLike }).router);
      expect(routes.length).toBeGreaterThan(10);
      for (const { path, methods } of routes) {
        // `/cms/:type` is documented once per content type; `:name` becomes `{name}`.
        const documented = path.replace(/^\/cms\/:type/, '/cms/events').replace(/:(\w+)/g, '{$1}');
        const item = document.paths[documented] as Record<string, unknown> | undefined;
        expect(item, `${path} is not documented`).toBeDefined();
        for (const method of methods) expect(item?.[method], `${method} ${path}`).toBeDefined();
      }
    } finally {
      await database.close();
    }
  });

  it('maps each column type to JSON Schema: options as enums, tags as lists, relations as objects, formats', () => {
    const event = document.components.schemas.Event as any;
    expect(event.required).toEqual(expect.arrayContaining(['id', 'name', 'stage', 'tags', 'category', 'meta']));
    expect(event.additionalProperties).toBe(false);
    const p = event.properties;
    expect(p.name).toMatchObject({ type: 'string', title: 'Name' });
    expect(p.stage).toMatchObject({ type: 'string', enum: ['planned', 'held'] });
    expect(p.starts_at.pattern).toBe('^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$');
    expect(p.day.anyOf).toEqual([expect.objectContaining({ type: 'string', format: 'date' }), { type: 'null' }]);
    expect(p.seats.anyOf[0]).toEqual({ type: 'number' });
    expect(p.free.anyOf[0]).toEqual({ type: 'boolean' });
    expect(p.tags).toMatchObject({ type: 'array', items: { type: 'string' }, uniqueItems: true });
    expect(p.category.anyOf[0]).toMatchObject({ type: 'object', required: ['id', 'title', 'slug'] });
    expect(p.body.anyOf[0]).toMatchObject({ contentMediaType: 'text/markdown' });
    // A create needs the required columns but the slug, which is made from its parent.
    expect((document.components.schemas.EventInput as any).required).toEqual(['name', 'stage', 'starts_at']);
    expect((document.components.schemas.EventUpdate as any).required).toBeUndefined();
    const body = (document.paths['/cms/events'] as any).post.requestBody.content;
    expect(Object.keys(body)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body['application/x-www-form-urlencoded'].schema).toEqual({ $ref: '#/components/schemas/EventForm' });
    // Names come from the tables, made singular: news stays news.
    expect(document['x-quire-content-types'].map((type) => type.name)).toEqual(
      expect.arrayContaining(['News', 'Category', 'Article', 'MenuItem', 'Event']),
    );
  });

  it('documents the error shape and each status', () => {
    const responses = document.components.responses as Record<string, any>;
    expect(Object.keys(responses)).toEqual(
      expect.arrayContaining([
        'Error400',
        'Error401',
        'Error403',
        'Error404',
        'Error409',
        'Error413',
        'Error415',
        'Error500',
        'Error503',
      ]),
    );
    expect(responses.Error400.description).toContain('validation_failed');
    const remove = (document.paths['/cms/events/{id}'] as any).delete.responses;
    expect(Object.keys(remove)).toEqual(expect.arrayContaining(['200', '404', '409', '503']));
  });

  it('describes both requests that send a file alike: one multipart file in, the asset or 413/415 out', () => {
    const uploads = [
      { operation: (document.paths['/uploads'] as any).post, status: '201' },
      { operation: (document.paths['/media/{id}/file'] as any).put, status: '200' },
    ];
    // One body for both: a multipart form whose one required member is the file.
    expect(uploads[1]?.operation.requestBody).toEqual(uploads[0]?.operation.requestBody);
    const form = uploads[0]?.operation.requestBody.content['multipart/form-data'];
    expect(Object.keys(uploads[0]?.operation.requestBody.content)).toEqual(['multipart/form-data']);
    expect(form.schema.required).toEqual(['file']);
    expect(form.schema.properties.file.contentMediaType).toBe('application/octet-stream');
    for (const { operation, status } of uploads) {
      expect(operation.responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/MediaAsset',
      });
      expect(operation.responses['413']).toEqual({ $ref: '#/components/responses/Error413' });
      expect(operation.responses['415']).toEqual({ $ref: '#/components/responses/Error415' });
      expect(operation.responses['404']).toEqual({ $ref: '#/components/responses/Error404' });
    }
    // Replacing a file is an author's or editor's act on an asset; a new upload may meet its twin (200).
    expect(uploads[1]?.operation.responses['403']).toEqual({ $ref: '#/components/responses/Error403' });
    expect(uploads[0]?.operation.responses['200'].description).toContain('already has these bytes');
  });

  it('changes when a content type changes', async () => {
    const columns = EVENT_COLUMNS.map((column) =>
      column.name === 'stage'
        ? { ...column, options: [...(column.options ?? []), { id: 'cancelled', text: 'Cancelled' }] }
        : column,
    );
    columns.push({ name: 'venue', label: 'Venue', type: 'text', required: false });
    const changed = await call('PUT', '/cms-content/events', { json: { columns } });
    expect(changed.response.status).toBe(200);
    const after = await fetchDocument();
    const event = after.components.schemas.Event as any;
    expect(event.properties.stage.enum).toEqual(['planned', 'held', 'cancelled']);
    expect(event.properties.venue.anyOf[0]).toMatchObject({ type: 'string' });
    expect(await openApiProblems(after)).toEqual([]);
    document = after;
    checker = new ResponseChecker(after);
  });
});

describe('content types with blocks', () => {
  it('are described with their block types, and their rows match the document', async () => {
    const columns = [
      { name: 'title', label: 'Title', type: 'text', required: true },
      blocksColumn('sections', 'Sections', [
        blockType('hero', 'Hero', [{ name: 'heading', label: 'Heading', type: 'text', required: true }]),
        blockType('quote', 'Quote', [{ name: 'text', label: 'Text', type: 'textarea', required: false }]),
      ]),
    ];
    const made = await request(server, 'POST', '/cms-content', { json: { title: 'Landings', columns } });
    expect(made.response.status, made.text).toBe(201);
    const after = await fetchDocument();
    expect(await openApiProblems(after)).toEqual([]);
    document = after;
    checker = new ResponseChecker(after);
    const listed = await call('GET', '/cms-content');
    const landing = listed.body.content_types.find((type: { slug: string }) => type.slug === 'landings');
    expect(landing.columns[1].blocks.map((block: { name: string }) => block.name)).toEqual(['hero', 'quote']);
    await call('GET', '/cms-content/landings');
    const row = await call('POST', '/cms/landings', {
      json: {
        title: 'Home',
        sections: [
          { type: 'hero', heading: 'Welcome' },
          { type: 'quote', text: 'Hello' },
        ],
      },
    });
    expect(row.response.status, row.text).toBe(201);
    await call('GET', `/cms/landings/${row.body.id}`);
  });
});

describe('answers match the document', () => {
  it('for reads, writes in JSON and forms, uploads and errors', async () => {
    const category = await call('POST', '/cms/categories', { body: { title: 'Music' } });
    expect(category.response.status).toBe(201);
    const categoryId = category.body.id;

    const upload = new FormData();
    upload.append('file', new Blob([new Uint8Array(pngImage())], { type: 'image/png' }), 'poster.png');
    const uploaded = await fetch(`${server.api}/uploads`, { method: 'POST', body: upload });
    const uploadBody = (await uploaded.json()) as { path: string };
    expect(uploaded.status).toBe(201);
    expect(checker.problems('POST', '/uploads', 201, uploadBody)).toEqual([]);

    const json = await call('POST', '/cms/events', {
      json: {
        name: 'Harbour concert',
        stage: 'planned',
        starts_at: '2026-07-01T19:30',
        body: '# Bring a chair',
        seats: 120,
        free: true,
        day: '2026-07-01',
        poster: uploadBody.path,
        tags: ['music', 'outdoor'],
        category: categoryId,
        meta: { title: 'Concert' },
      },
    });
    expect(json.response.status, json.text).toBe(201);
    const id = json.body.id;
    const form = await call('POST', '/cms/events', {
      body: {
        name: 'Quiet reading',
        stage: 'held',
        starts_at: '2026-02-01 10:00:00',
        tags: ['books', 'calm'],
        free: 'off',
      },
    });
    expect(form.response.status, form.text).toBe(201);
    // An id chosen by the client.
    expect(
      (
        await call('POST', '/cms/events/chosen-id', {
          json: { name: 'Chosen', stage: 'held', starts_at: '2026-03-01 10:00' },
        })
      ).response.status,
    ).toBe(201);

    expect((await call('GET', '/cms/events')).body.count).toBe(3);
    expect((await call('GET', '/cms/events?filter=stage=held&order=starts_at&desc=true&limit=1')).body.count).toBe(1);
    expect((await call('GET', `/cms/events/${id}`)).body.rows[0].category).toMatchObject({
      id: categoryId,
      title: 'Music',
    });
    expect((await call('PUT', `/cms/events/${id}`, { json: { seats: 150 } })).body.seats).toBe(150);
    expect((await call('PATCH', `/cms/events/${id}`, { body: { venue: 'Pier 4' } })).body.venue).toBe('Pier 4');
    await call('GET', '/cms/news');
    await call('GET', '/cms/articles');
    await call('GET', '/cms-content');
    await call('GET', '/cms-content/events');
    await call('GET', '/media/unused');
    await call('GET', '/auth/me');
    await call('GET', '/accounts');
    await call('GET', '/tokens');

    // Errors, each in the one error shape and under a documented status.
    expect((await call('GET', '/cms/events/no-such-row')).response.status).toBe(404);
    expect((await call('GET', '/cms/events?filter=nothing=1')).response.status).toBe(400);
    expect((await call('POST', '/cms/events', { json: { name: 'No stage' } })).response.status).toBe(400);
    expect(
      (await call('POST', '/cms/events', { json: { name: 'x', stage: 'lost', starts_at: '2026-01-01 00:00' } })).body
        .error.code,
    ).toBe('validation_failed');
    expect((await call('DELETE', `/cms/categories/${categoryId}`)).response.status).toBe(409);
    expect((await call('DELETE', '/cms/events/chosen-id')).body.rowCount).toBe(1);
    const typeCheck = await call('POST', '/cms/events', { body: 'a=1', headers: { 'content-type': 'text/plain' } });
    expect(typeCheck.response.status).toBe(415);
    expect(checker.checked).toBeGreaterThanOrEqual(22);
  });

  it('refuses what breaks the schema (the check is not vacuous)', async () => {
    const { body } = await request(server, 'GET', '/cms/events');
    const row = body.rows[0];
    expect(checker.matches('Event', row)).toEqual([]);
    expect(checker.matches('Event', { ...row, stage: 'lost' })).not.toEqual([]);
    expect(checker.matches('Event', { ...row, tags: 'music' })).not.toEqual([]);
    expect(checker.matches('Event', { ...row, starts_at: '2026-07-01T19:30:00Z' })).not.toEqual([]);
    expect(checker.matches('Event', { ...row, unknown: 1 })).not.toEqual([]);
  });
});

/** The parts of an Express router the route listing reads. */
interface RouterLike {
  stack: { route?: { path: unknown; methods: Record<string, boolean> }; handle?: Partial<RouterLike> }[];
}

/** Every route of a router and the routers it mounts, with its methods (not `.all`'s refusal). */
function routesOf(router: RouterLike): { path: string; methods: string[] }[] {
  const found: { path: string; methods: string[] }[] = [];
  for (const layer of router.stack) {
    if (layer.route && typeof layer.route.path === 'string') {
      found.push({ path: layer.route.path, methods: Object.keys(layer.route.methods).filter((m) => m !== '_all') });
    } else if (layer.handle?.stack) {
      found.push(...routesOf(layer.handle as RouterLike));
    }
  }
  return found;
}
