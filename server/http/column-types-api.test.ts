import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnDescriptor, ColumnType } from '../../common/api-contract.js';
import { request } from '../test-support/api-scenario.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * Every column type through the API: a valid value stored and read back, an invalid one refused
 * naming the field, an equality (or membership) filter, and `order` where the type allows it.
 */
interface TypeCase {
  column: ColumnDescriptor;
  /** Three valid values, sorted ascending, as sent in a JSON body. */
  values: [unknown, unknown, unknown];
  /** How each reads back (defaults to the value sent). */
  read?: (value: unknown) => unknown;
  invalid: unknown;
  /** `filter=` value matching only the second row. */
  filter: string;
  orderable: boolean;
}

let categoryIds: string[] = [];
const media = (n: number) => `/media/2026/11/01a2044d-71da-7029-9f40-4aee790ee7d${n}.png`;

// Blocks take no filter and carry many values in one; blocks-api.test.ts tests them.
const CASES: Record<Exclude<ColumnType, 'blocks'>, TypeCase> = {
  text: {
    column: { name: 'f_text', label: 'Text', type: 'text', required: false },
    values: ['alpha', 'bravo', 'charlie'],
    invalid: ['a', 'b'],
    filter: 'bravo',
    orderable: true,
  },
  textarea: {
    column: { name: 'f_textarea', label: 'Long', type: 'textarea', required: false },
    values: ['a\nline', 'b\nline', 'c\nline'],
    invalid: { x: 1 },
    filter: 'b%0Aline',
    orderable: true,
  },
  markdown: {
    column: { name: 'f_markdown', label: 'Md', type: 'markdown', required: false },
    values: ['# a', '# b', '# c'],
    invalid: ['x', 'y'],
    filter: '%23%20b',
    orderable: true,
  },
  richtext: {
    column: { name: 'f_richtext', label: 'Rich', type: 'richtext', required: false },
    values: ['<p>a</p>', '<p>b</p>', '<p>c</p>'],
    invalid: ['x', 'y'],
    // A value beginning with < is escaped, or it reads as the < operator.
    filter: '%5C%3Cp%3Eb%3C%2Fp%3E',
    orderable: true,
  },
  slug: {
    column: { name: 'f_slug', label: 'Slug', type: 'slug', required: false, parent: 'f_text' },
    values: ['slug-a', 'slug-b', 'slug-c'],
    invalid: '!!!',
    filter: 'slug-b',
    orderable: true,
  },
  select: {
    column: {
      name: 'f_select',
      label: 'Select',
      type: 'select',
      required: false,
      options: [
        { id: 'a', text: 'A' },
        { id: 'b', text: 'B' },
        { id: 'c', text: 'C' },
      ],
    },
    values: ['a', 'b', 'c'],
    invalid: 'z',
    filter: 'b',
    orderable: true,
  },
  datetime: {
    column: { name: 'f_datetime', label: 'When', type: 'datetime', required: false },
    values: ['2025-01-01 10:00:00', '2025-02-01 10:00:00', '2025-03-01 10:00:00'],
    invalid: '2025-02-30 10:00:00',
    filter: '2025-02-01%2010:00:00',
    orderable: true,
  },
  date: {
    column: { name: 'f_date', label: 'Day', type: 'date', required: false },
    values: ['2025-01-01', '2025-02-01', '2025-03-01'],
    invalid: '2025-13-01',
    filter: '2025-02-01',
    orderable: true,
  },
  number: {
    column: { name: 'f_number', label: 'Num', type: 'number', required: false },
    values: [-1.5, 2, 10],
    invalid: 'ten',
    filter: '2',
    orderable: true,
  },
  boolean: {
    column: { name: 'f_boolean', label: 'Flag', type: 'boolean', required: false },
    values: [false, true, true],
    invalid: 'maybe',
    filter: 'true',
    orderable: true,
  },
  image: {
    column: { name: 'f_image', label: 'Image', type: 'image', required: false },
    values: [media(1), media(2), media(3)],
    invalid: '/etc/passwd',
    filter: encodeURIComponent(media(2)),
    orderable: true,
  },
  tags: {
    column: { name: 'f_tags', label: 'Tags', type: 'tags', required: false },
    values: [['x'], ['y', 'only-b'], ['x', 'y']],
    invalid: [1],
    filter: 'only-b',
    orderable: false,
  },
  relation: {
    column: { name: 'f_relation', label: 'Rel', type: 'relation', required: false, target: 'categories' },
    values: [0, 1, 2],
    read: (index) => ({ id: categoryIds[index as number], title: `Category ${index}`, slug: `category-${index}` }),
    invalid: 'no-such-row',
    filter: '',
    orderable: true,
  },
};

let server: TestServer;
const rowIds: string[] = [];

beforeAll(async () => {
  server = await startTestServer();
  for (const n of [0, 1, 2]) {
    categoryIds.push((await request(server, 'POST', '/cms/categories', { body: { title: `Category ${n}` } })).body.id);
  }
  categoryIds = [...categoryIds].sort();
  CASES.relation.filter = categoryIds[1];
  const created = await request(server, 'POST', '/cms-content', {
    json: { title: 'Every type', table: 'every_type', columns: Object.values(CASES).map((c) => c.column) },
  });
  expect(created.response.status, JSON.stringify(created.body)).toBe(201);
  for (const index of [0, 1, 2]) {
    const body = Object.fromEntries(
      Object.values(CASES).map((c) => [
        c.column.name,
        c.column.type === 'relation' ? categoryIds[index] : c.values[index],
      ]),
    );
    const { response, body: row } = await request(server, 'POST', '/cms/every_type', { json: body });
    expect(response.status, JSON.stringify(row)).toBe(201);
    rowIds.push(row.id);
  }
});
afterAll(() => server.dispose());

describe.each(Object.entries(CASES))('column type %s', (_type, c) => {
  const name = c.column.name;
  const readBack = (index: number) => (c.read ? c.read(index) : c.values[index]);

  it('stores a valid value and reads it back', async () => {
    const { body } = await request(server, 'GET', `/cms/every_type/${rowIds[1]}`);
    expect(body.rows[0][name]).toEqual(readBack(1));
  });

  it('refuses an invalid value, naming the field and changing nothing', async () => {
    const { response, body } = await request(server, 'PUT', `/cms/every_type/${rowIds[1]}`, {
      json: { [name]: c.invalid },
    });
    expect(response.status).toBe(400);
    expect(Object.keys(body.error.fields)).toEqual([name]);
    expect((await request(server, 'GET', `/cms/every_type/${rowIds[1]}`)).body.rows[0][name]).toEqual(readBack(1));
  });

  it('filters by value', async () => {
    const { response, body } = await request(server, 'GET', `/cms/every_type?filter=${name}=${c.filter}`);
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body.rows.map((row: { id: string }) => row.id)).toContain(rowIds[1]);
    expect(body.rows.map((row: { id: string }) => row.id)).not.toContain(rowIds[0]);
  });

  it(c.orderable ? 'orders by value' : 'refuses to order by value', async () => {
    const { response, body } = await request(server, 'GET', `/cms/every_type?order=${name}&desc=true`);
    if (!c.orderable) {
      expect(response.status).toBe(400);
      return;
    }
    expect(response.status).toBe(200);
    const order = body.rows.map((row: { id: string }) => rowIds.indexOf(row.id));
    // Descending: row 2's value sorts last ascending, so it comes first (booleans tie: id breaks it).
    expect(order[order.length - 1]).toBe(0);
    expect(order[0]).toBe(2);
  });
});
