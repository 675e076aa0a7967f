import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Conditional fields through the API: descriptors whose `when` breaks the rules are refused and
 * change nothing; a required column is required only while its condition holds, on create and on
 * update (against the stored row); a hidden column's value is kept; type changes follow renames.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.dispose());

const KIND: ColumnDescriptor = {
  name: 'kind',
  label: 'Kind',
  type: 'select',
  required: true,
  options: [
    { id: 'text', text: 'Text' },
    { id: 'video', text: 'Video' },
  ],
};
const VIDEO_URL: ColumnDescriptor = {
  name: 'video_url',
  label: 'Video URL',
  type: 'text',
  required: true,
  when: { field: 'kind', is: ['video'] },
};
const COLUMNS: ColumnDescriptor[] = [
  { name: 'title', label: 'Title', type: 'text', required: true },
  KIND,
  VIDEO_URL,
  { name: 'source', label: 'Source', type: 'text', required: false, when: { field: 'kind', is: ['video'] } },
  { name: 'youtube_id', label: 'YouTube id', type: 'text', required: true, when: { field: 'source', is: ['youtube'] } },
  { name: 'featured', label: 'Featured', type: 'boolean', required: false },
  { name: 'reason', label: 'Reason', type: 'text', required: true, when: { field: 'featured', is: [true] } },
];

const createType = (slug: string, columns: unknown[]) =>
  request(server, 'POST', '/cms-content', { json: { title: slug, slug, columns } });
const create = (table: string, json: Record<string, unknown>) => request(server, 'POST', `/cms/${table}`, { json });
const update = (table: string, id: string, json: Record<string, unknown>) =>
  request(server, 'PUT', `/cms/${table}/${id}`, { json });
const read = async (table: string, id: string) => (await request(server, 'GET', `/cms/${table}/${id}`)).body.rows[0];

beforeAll(async () => {
  const { response, body } = await createType('posts', COLUMNS);
  expect(response.status, JSON.stringify(body)).toBe(201);
});

describe('column descriptors with when', () => {
  it('are published as sent, and the OpenAPI create body does not require a conditional column', async () => {
    const { body } = await request(server, 'GET', '/cms-content');
    const posts = body.content_types.find((item: { slug: string }) => item.slug === 'posts');
    expect(posts.columns.map((column: ColumnDescriptor) => column.when ?? null)).toEqual(
      COLUMNS.map((column) => column.when ?? null),
    );
    const document = (await request(server, 'GET', '/openapi.json')).body;
    expect(document.components.schemas.PostInput.required).toEqual(['title', 'kind']);
    expect(document.components.schemas.FieldCondition.oneOf).toHaveLength(4);
  });

  const refusals: [string, unknown[], string, object][] = [
    [
      'a malformed condition',
      [KIND, { ...VIDEO_URL, when: { field: 'kind' } }],
      'columns[1].when',
      { code: 'not_a_condition' },
    ],
    [
      'two operators',
      [KIND, { ...VIDEO_URL, when: { field: 'kind', is: ['video'], empty: true } }],
      'columns[1].when',
      { code: 'not_a_condition' },
    ],
    [
      'a condition that is a string',
      [KIND, { ...VIDEO_URL, when: 'kind=video' }],
      'columns[1].when',
      { code: 'not_a_condition' },
    ],
    [
      'an unknown field',
      [KIND, { ...VIDEO_URL, when: { field: 'format', is: ['video'] } }],
      'columns[1].when',
      { code: 'condition_unknown_field', field: 'format' },
    ],
    [
      'a condition on itself',
      [KIND, { ...VIDEO_URL, when: { field: 'video_url', notEmpty: true } }],
      'columns[1].when',
      { code: 'condition_cycle', columns: ['video_url'] },
    ],
    [
      'a cycle',
      [
        { ...KIND, when: { field: 'video_url', notEmpty: true } },
        { ...VIDEO_URL, when: { field: 'kind', is: ['video'] } },
      ],
      'columns[0].when',
      { code: 'condition_cycle', columns: ['kind', 'video_url'] },
    ],
    [
      'a value that is not an option',
      [KIND, { ...VIDEO_URL, when: { field: 'kind', is: ['movie'] } }],
      'columns[1].when',
      { code: 'condition_value', field: 'kind', value: '"movie"' },
    ],
    [
      'a text compared with a boolean',
      [
        { name: 'flag', label: 'Flag', type: 'boolean', required: false },
        { ...VIDEO_URL, when: { field: 'flag', is: ['yes'] } },
      ],
      'columns[1].when',
      { code: 'condition_value', field: 'flag', value: '"yes"' },
    ],
    [
      'a value compared in markdown',
      [
        { name: 'body', label: 'Body', type: 'markdown', required: false },
        { ...VIDEO_URL, when: { field: 'body', is: ['x'] } },
      ],
      'columns[1].when',
      { code: 'condition_empty_only', field: 'body' },
    ],
  ];
  for (const [what, columns, at, problem] of refusals) {
    it(`refuses ${what} with 400 naming the column, and creates nothing`, async () => {
      const { response, body } = await createType('refused', columns);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(body.error.problems[at]).toEqual(problem);
      expect(typeof body.error.fields[at]).toBe('string');
      expect((await request(server, 'GET', '/cms/refused')).response.status).toBe(404);
    });
  }
});

describe('rows of a type with conditional columns', () => {
  it('do not need a hidden required column, and keep a value sent to it', async () => {
    const { response, body } = await create('posts', {
      title: 'Essay',
      kind: 'text',
      video_url: 'https://v.example/1',
    });
    expect(response.status, JSON.stringify(body)).toBe(201);
    const row = await read('posts', body.id);
    expect(row.video_url).toBe('https://v.example/1');
    expect(row.youtube_id).toBeNull();
  });

  it('need a shown required column, down a chain and on a boolean', async () => {
    let { response, body } = await create('posts', { title: 'Clip', kind: 'video' });
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ video_url: { code: 'required' } });
    ({ response, body } = await create('posts', { title: 'Clip', kind: 'video', video_url: 'u', source: 'youtube' }));
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ youtube_id: { code: 'required' } });
    ({ response, body } = await create('posts', { title: 'Clip', kind: 'text', source: 'youtube' }));
    expect(response.status, 'a chain below a hidden column is hidden').toBe(201);
    ({ response, body } = await create('posts', { title: 'Star', kind: 'text', featured: true }));
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ reason: { code: 'required' } });
    ({ response, body } = await create('posts', { title: 'Plain', kind: 'text', featured: false }));
    expect(response.status).toBe(201);
  });

  it('are checked on update against the stored row: showing a column needs its value', async () => {
    const { body: created } = await create('posts', { title: 'Later a clip', kind: 'text' });
    const before = await read('posts', created.id);
    let { response, body } = await update('posts', created.id, { kind: 'video' });
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ video_url: { code: 'required' } });
    expect(await read('posts', created.id)).toEqual(before);
    ({ response, body } = await update('posts', created.id, { kind: 'video', video_url: 'https://v.example/2' }));
    expect(response.status, JSON.stringify(body)).toBe(200);
    ({ response, body } = await update('posts', created.id, { video_url: null }));
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ video_url: { code: 'required' } });
    ({ response, body } = await update('posts', created.id, { title: 'Renamed clip' }));
    expect(response.status, 'a write that leaves the shown column alone').toBe(200);
    ({ response, body } = await update('posts', created.id, { kind: 'text', video_url: null }));
    expect(response.status, 'hidden, it may be cleared').toBe(200);
    expect((await read('posts', created.id)).video_url).toBeNull();
  });

  it('are refused when a hidden value is malformed (it is kept, so it is checked)', async () => {
    const { response, body } = await create('posts', { title: 'Odd', kind: 'text', featured: 'maybe' });
    expect(response.status).toBe(400);
    expect(body.error.problems.featured).toEqual({ code: 'not_a_boolean' });
  });
});

describe('type changes and conditions', () => {
  beforeAll(async () => {
    const { response } = await createType('clips', [
      { name: 'title', label: 'Title', type: 'text', required: true },
      KIND,
      VIDEO_URL,
    ]);
    expect(response.status).toBe(201);
  });
  const change = (columns: unknown[]) => request(server, 'PUT', '/cms-content/clips', { json: { columns } });
  const TITLE = { name: 'title', label: 'Title', type: 'text', required: true };

  it('refuses dropping the column a condition names, and changes nothing', async () => {
    const { response, body } = await change([TITLE, VIDEO_URL]);
    expect(response.status).toBe(400);
    expect(body.error.problems['columns[1].when']).toEqual({ code: 'condition_unknown_field', field: 'kind' });
    const { body: list } = await request(server, 'GET', '/cms-content');
    const clips = list.content_types.find((item: { slug: string }) => item.slug === 'clips');
    expect(clips.columns.map((column: ColumnDescriptor) => column.name)).toEqual(['title', 'kind', 'video_url']);
  });

  it('refuses removing a select option a condition names', async () => {
    const { response, body } = await change([TITLE, { ...KIND, options: [{ id: 'text', text: 'Text' }] }, VIDEO_URL]);
    expect(response.status).toBe(400);
    expect(body.error.problems['columns[2].when']).toEqual({
      code: 'condition_value',
      field: 'kind',
      value: '"video"',
    });
  });

  it('follows a rename: a condition on the old name names the new one', async () => {
    await create('clips', { title: 'One', kind: 'video', video_url: 'https://v.example/3' });
    const { response, body } = await change([TITLE, { ...KIND, name: 'format', from: 'kind' }, VIDEO_URL]);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.columns[2].when).toEqual({ field: 'format', is: ['video'] });
    const { response: refused, body: problems } = await create('clips', { title: 'Two', format: 'video' });
    expect(refused.status).toBe(400);
    expect(problems.error.problems).toEqual({ video_url: { code: 'required' } });
  });
});
