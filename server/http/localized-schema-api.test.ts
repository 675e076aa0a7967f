import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * `"localized": true` in content-type writes: accepted on the localizable column types, refused on
 * the others and inside block types, published as sent, and `false` kept as absent.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

const create = (title: string, columns: unknown[]) =>
  request(server, 'POST', '/cms-content', { json: { title, columns } });

const TITLE: ColumnDescriptor = { name: 'title', label: 'Title', type: 'text', required: true };

describe('localized on a column descriptor', () => {
  it('is accepted on every localizable type and published', async () => {
    const columns: ColumnDescriptor[] = [
      { ...TITLE, localized: true },
      { name: 'slug', label: 'Slug', type: 'slug', required: false, parent: 'title', localized: true },
      { name: 'summary', label: 'Summary', type: 'textarea', required: false, localized: true },
      { name: 'body', label: 'Body', type: 'markdown', required: false, localized: true },
      { name: 'keywords', label: 'Keywords', type: 'tags', required: false, localized: true },
      { name: 'cover', label: 'Cover', type: 'image', required: false, localized: true },
      { name: 'price', label: 'Price', type: 'number', required: false },
    ];
    const { response, body } = await create('Guides', columns);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.columns.map((column: ColumnDescriptor) => [column.name, column.localized])).toEqual([
      ['title', true],
      ['slug', true],
      ['summary', true],
      ['body', true],
      ['keywords', true],
      ['cover', true],
      ['price', undefined],
    ]);
    const read = await request(server, 'GET', '/cms-content/guides');
    expect(read.body.columns).toEqual(body.columns);
  });

  it('false is kept as absent, so a round trip compares equal', async () => {
    const { response, body } = await create('Plain notes', [{ ...TITLE, localized: false }]);
    expect(response.status, JSON.stringify(body)).toBe(201);
    expect(body.columns[0]).not.toHaveProperty('localized');
    const again = await request(server, 'PUT', `/cms-content/${body.slug}`, { json: { columns: body.columns } });
    expect(again.response.status, again.text).toBe(200);
    expect(again.body.columns).toEqual(body.columns);
  });

  it('is refused on a type that stays shared, naming the type at the column, and creates nothing', async () => {
    const { response, body } = await create('Prices', [
      TITLE,
      { name: 'price', label: 'Price', type: 'number', required: false, localized: true },
      {
        name: 'kind',
        label: 'Kind',
        type: 'select',
        required: false,
        options: [{ id: 'a', text: 'A' }],
        localized: true,
      },
    ]);
    expect(response.status).toBe(400);
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.problems).toEqual({
      'columns[1]': { code: 'not_localizable', type: 'number' },
      'columns[2]': { code: 'not_localizable', type: 'select' },
    });
    expect((await request(server, 'GET', '/cms-content/prices')).response.status).toBe(404);
  });

  it('must be a boolean', async () => {
    const { response, body } = await create('Strings', [{ ...TITLE, localized: 'true' }]);
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({ 'columns[0].localized': { code: 'not_a_boolean' } });
  });

  it('is refused inside block types: a block is part of its blocks column, which every locale shares', async () => {
    const { response, body } = await create('Pages with blocks', [
      TITLE,
      {
        name: 'sections',
        label: 'Sections',
        type: 'blocks',
        required: false,
        blocks: [
          {
            name: 'quote',
            label: 'Quote',
            columns: [{ name: 'text', label: 'Text', type: 'text', required: false, localized: true }],
          },
        ],
      },
    ]);
    expect(response.status).toBe(400);
    expect(body.error.problems).toEqual({
      'columns[1].blocks[0].columns[0]': { code: 'not_localizable', type: 'blocks' },
    });
  });

  it('is refused when a type change leaves it on a type that cannot be localized, and changes nothing', async () => {
    await create('Memos', [TITLE, { name: 'note', label: 'Note', type: 'markdown', required: false, localized: true }]);
    const changed = await request(server, 'PUT', '/cms-content/memos', {
      json: {
        columns: [TITLE, { name: 'note', label: 'Note', type: 'richtext', required: false, localized: true }],
      },
    });
    expect(changed.response.status).toBe(400);
    expect(changed.body.error.problems).toEqual({ 'columns[1]': { code: 'not_localizable', type: 'richtext' } });
    const read = await request(server, 'GET', '/cms-content/memos');
    expect(read.body.columns[1]).toMatchObject({ type: 'markdown', localized: true });
  });
});
