import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { starterType } from '../test-support/content-types.js';
import { contentTypeFromRecord } from './content-type.js';
import { parseRowInput } from './row-input.js';

const news = starterType('news');
const valid = { title: 'Hello', status: 'draft', published_at: '2025-01-02 03:04:05' };

function problemsOf(body: unknown, mode: 'create' | 'update' = 'create'): Record<string, string> | undefined {
  try {
    parseRowInput(news, body, mode);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).fields;
  }
}

describe('parseRowInput', () => {
  it('parses every column of a valid body', () => {
    const input = parseRowInput(news, valid, 'create');
    expect(Object.fromEntries(input.values)).toEqual(valid);
    expect(input.meta).toBeUndefined();
  });

  it('requires the required columns on create, but not the slug (it is generated)', () => {
    expect(problemsOf({})).toEqual({ title: 'is required', status: 'is required', published_at: 'is required' });
  });

  it('lets an update name only some fields, but not clear a required one', () => {
    expect(problemsOf({ status: 'published' }, 'update')).toBeUndefined();
    expect(problemsOf({ title: '' }, 'update')).toEqual({ title: 'is required' });
  });

  it('accepts publish_at as another name for published_at', () => {
    const { published_at: _omitted, ...rest } = valid;
    const input = parseRowInput(news, { ...rest, publish_at: '2025-05-06 07:08:09' }, 'create');
    expect(input.values.get('published_at')).toBe('2025-05-06 07:08:09');
  });

  it('refuses publish_at and published_at together', () => {
    expect(problemsOf({ ...valid, publish_at: '2025-05-06 07:08:09' })).toHaveProperty('publish_at');
  });

  it('names fields the type does not have', () => {
    expect(problemsOf({ ...valid, colour: 'red' })).toEqual({ colour: 'is not a field of news' });
  });

  it('ignores system fields sent in the body', () => {
    const input = parseRowInput(news, { ...valid, id: 'x', created_at: 'y', updated_by: 'z' }, 'create');
    expect([...input.values.keys()].sort()).toEqual(['published_at', 'status', 'title']);
  });

  it('refuses a body that is not an object', () => {
    expect(() => parseRowInput(news, ['a'], 'create')).toThrow(/must be an object/);
  });

  it('reports every bad field at once', () => {
    expect(Object.keys(problemsOf({ title: ['a', 'b'], status: 'x', published_at: 'soon' }) ?? {}).sort()).toEqual([
      'published_at',
      'status',
      'title',
    ]);
  });
});

describe('field names that every JavaScript object has', () => {
  // A column called `constructor` (possible in databases made before such names were reserved)
  // must be checked like any other: problems are kept without a prototype.
  const odd = contentTypeFromRecord({
    id: 'odd',
    slug: 'odd',
    table_name: 'odd',
    title: 'Odd',
    status: 'published',
    type: 'collection',
    custom: 1,
    columns: JSON.stringify([
      { name: 'constructor', label: 'Maker', type: 'text', required: true },
      { name: 'title', label: 'Title', type: 'text', required: true },
    ]),
    preview_path: null,
    position: 0,
    flat_meta: 0,
    created_at: '2026-01-01 00:00:00.000000',
    updated_at: '2026-01-01 00:00:00.000000',
  });

  it('are required like any other field', () => {
    const error = (() => {
      try {
        parseRowInput(odd, {}, 'create');
      } catch (thrown) {
        return thrown as AppError;
      }
    })();
    expect(error?.toBody().error.problems).toEqual({
      constructor: { code: 'required' },
      title: { code: 'required' },
    });
  });

  it('report unknown names such as toString as unknown fields', () => {
    expect(() => parseRowInput(news, { ...valid, toString: 'x', hasOwnProperty: 'y' }, 'create')).toThrow(
      /toString is not a field of news; hasOwnProperty is not a field of news/,
    );
  });
});
