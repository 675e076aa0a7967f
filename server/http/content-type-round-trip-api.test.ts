import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * A client may read a content type, change it and send back what it read: the members the server
 * sets (slug, table, the derived title and search columns, each column's filterable and orderable,
 * the rows of GET /cms-content/:slug) are accepted while unchanged and refused by name when changed.
 */
let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(() => server.dispose());

async function readNews() {
  const { response, body } = await request(server, 'GET', '/cms-content/news');
  expect(response.status).toBe(200);
  return body;
}

describe('PUT /api/cms-content/:slug with the body GET returned', () => {
  it('accepts it unchanged and changes nothing', async () => {
    const before = await readNews();
    const { response, body } = await request(server, 'PUT', '/cms-content/news', { json: before });
    expect(response.status, JSON.stringify(body)).toBe(200);
    const { rows: _rows, ...type } = before;
    expect(body).toMatchObject(type);
  });

  it('adds a column appended to what it read', async () => {
    const read = await readNews();
    read.columns.push({ name: 'subtitle', label: 'Subtitle', type: 'text', required: false });
    const { response, body } = await request(server, 'PUT', '/cms-content/news', { json: read });
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.columns.at(-1)).toEqual({
      name: 'subtitle',
      label: 'Subtitle',
      type: 'text',
      required: false,
      filterable: true,
      orderable: true,
    });
    const created = await request(server, 'POST', '/cms/news', {
      body: { title: 'A', status: 'draft', published_at: '2026-01-01 10:00:00', subtitle: 'B' },
    });
    expect(created.body.rows[0].subtitle).toBe('B');
  });

  it.each([
    ['slug', 'headlines'],
    ['table', 'headlines'],
    ['custom', true],
    ['title_column', 'slug'],
    ['search_columns', ['title']],
  ])('refuses a changed %s, naming it, and changes nothing', async (member, value) => {
    const read = await readNews();
    const { response, body } = await request(server, 'PUT', '/cms-content/news', {
      json: { ...read, [member]: value },
    });
    expect(response.status).toBe(400);
    expect(body.error.problems[member]).toEqual({ code: 'read_only', value: read[member] });
    expect(await readNews()).toEqual(read);
  });

  it('refuses a changed filterable or orderable of a column, naming the column', async () => {
    const read = await readNews();
    read.columns[0].orderable = false;
    const { response, body } = await request(server, 'PUT', '/cms-content/news', { json: read });
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ 'columns[0].orderable': { code: 'read_only', value: true } });
  });

  it('still refuses members a content type does not have', async () => {
    const read = await readNews();
    const { response, body } = await request(server, 'PUT', '/cms-content/news', { json: { ...read, colour: 'red' } });
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ colour: { code: 'not_changeable' } });
  });
});

describe('column names that every JavaScript object has', () => {
  it.each(['constructor', 'prototype'])('refuses a column named %s', async (name) => {
    const { response, body } = await request(server, 'POST', '/cms-content', {
      json: { title: 'Odd', columns: [{ name, label: 'Odd', type: 'text', required: true }] },
    });
    expect(response.status).toBe(400);
    expect(body.error.problems['columns[0].name']).toEqual({ code: 'reserved', name });
  });
});
