import { describe, expect, it } from 'vitest';
import type { ContentTypeRecord } from '../db/repositories/content-type-repository.js';
import { contentTypeFromRecord } from './content-type.js';

function record(table: string, columns: unknown[]): ContentTypeRecord {
  return {
    id: 'books',
    slug: 'books',
    table_name: table,
    title: 'Books',
    status: 'published',
    type: 'collection',
    custom: 1,
    columns: JSON.stringify(columns),
    preview_path: null,
    position: 0,
    flat_meta: 0,
    created_at: '2025-01-01 00:00:00.000000',
    updated_at: '2025-01-01 00:00:00.000000',
  };
}

const TITLE = { name: 'title', label: 'Title', type: 'text', required: true };

describe('a content type read from the registry', () => {
  it('is built when its table and column names are identifiers', () => {
    expect(contentTypeFromRecord(record('books', [TITLE])).columns).toEqual([TITLE]);
  });

  it.each(['a.b', 'Title', '1st', 'title"', 'tit le', '', 'x'.repeat(64)])(
    'is refused when a column is named %j, naming the type and the column',
    (name) => {
      const columns = [TITLE, { name, label: 'Odd', type: 'text', required: false }];
      expect(() => contentTypeFromRecord(record('books', columns))).toThrow(
        `Content type books: column ${JSON.stringify(name)} must be 1 to 63 lower-case letters, digits or _, starting with a letter`,
      );
    },
  );

  it.each(['main.books', 'Books', 'books;', 'quire_content_types', 'sqlite_master'])(
    'is refused when its table is %j, naming the type and the table',
    (table) => {
      expect(() => contentTypeFromRecord(record(table, [TITLE]))).toThrow(
        `Content type books: table ${JSON.stringify(table)}`,
      );
    },
  );

  it('is refused when its columns are not a list of objects', () => {
    expect(() => contentTypeFromRecord({ ...record('books', []), columns: '{"name":"title"}' })).toThrow(
      'Content type books: columns must be a non-empty array of column descriptors',
    );
    expect(() => contentTypeFromRecord(record('books', [null]))).toThrow(
      'Content type books: columns must be a non-empty array of column descriptors',
    );
  });
});
