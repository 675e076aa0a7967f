import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isIdentifier, isReservedTable, MAX_IDENTIFIER_LENGTH } from '../../../common/naming-rules.js';
import {
  contentIndexName,
  MAX_INTERNAL_NAME_BYTES,
  searchIndexName,
  searchPendingName,
  searchTriggerName,
} from './internal-names.js';

/** What FTS5 appends to a search index's name for its shadow tables. */
const SHADOW_SUFFIXES = ['_data', '_idx', '_content', '_docsize', '_config'];

/** Every name Quire gives the objects of `table` with these columns, FTS5's shadow tables included. */
function namesOf(table: string, columns: readonly string[]): string[] {
  const index = searchIndexName(table);
  return [
    index,
    ...SHADOW_SUFFIXES.map((suffix) => `${index}${suffix}`),
    searchPendingName(table),
    ...(['insert', 'update', 'delete'] as const).map((event) => searchTriggerName(table, event)),
    ...columns.flatMap((column) => [contentIndexName(table, [column], false), contentIndexName(table, [column], true)]),
    ...columns.slice(1).map((column) => contentIndexName(table, [columns[0], column], false)),
    contentIndexName(table, ['created_at'], false),
  ];
}

const identifier = fc
  .tuple(
    fc.constantFrom(...'abcdenstwz'),
    fc.array(fc.constantFrom(...'adeinostx_0123456789'), { maxLength: MAX_IDENTIFIER_LENGTH - 1 }),
  )
  .map(([first, rest]) => `${first}${rest.join('')}`);

describe('names of internal objects', () => {
  it('are all in the quire_ namespace, which no content table can enter', () => {
    for (const name of namesOf('news', ['status', 'published_at'])) {
      expect(name.startsWith('quire_'), name).toBe(true);
      expect(isIdentifier(name) && !isReservedTable(name), name).toBe(false);
    }
  });

  it('are those the search index and indexes of news have', () => {
    expect(searchIndexName('news')).toBe('quire_fts:news:');
    expect(searchPendingName('news')).toBe('quire_fts_pending:news');
    expect(searchTriggerName('news', 'insert')).toBe('quire_fts_trigger:news:insert');
    expect(contentIndexName('news', ['status', 'published_at'], false)).toBe('quire_idx:news:status:published_at');
    expect(contentIndexName('news', ['slug'], true)).toBe('quire_unique:news:slug');
  });

  it('never name an object of two tables, shadow tables included (news and news_data, news_status)', () => {
    const pairs: [string, string[]][] = [
      ['news', ['status', 'slug', 'published_at']],
      ['news_data', ['status']],
      ['news_pending', []],
      ['news_status', ['published_at', 'idx']],
      ['news_status_published', ['at']],
    ];
    const owners = new Map<string, string>();
    for (const [table, columns] of pairs) {
      for (const name of namesOf(table, columns)) {
        expect(owners.get(name) ?? table, name).toBe(table);
        owners.set(name, table);
      }
    }
  });

  it('are distinct for any tables and columns, at most 63 bytes, and the same every time', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(identifier, { minLength: 2, maxLength: 4 }),
        fc.array(identifier, { minLength: 1, maxLength: 3 }),
        (tables, columns) => {
          const owners = new Map<string, string>();
          for (const table of tables) {
            const names = namesOf(table, columns);
            expect(namesOf(table, columns)).toEqual(names);
            for (const name of names) {
              expect(Buffer.byteLength(name), name).toBeLessThanOrEqual(
                // Shadow tables are SQLite's (no length limit); Quire's own names fit PostgreSQL's.
                SHADOW_SUFFIXES.some((suffix) => name.endsWith(suffix))
                  ? Number.POSITIVE_INFINITY
                  : MAX_INTERNAL_NAME_BYTES,
              );
              expect(owners.get(name) ?? table, name).toBe(table);
              owners.set(name, table);
            }
          }
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });

  it('shorten long names with a hash, keeping names that differ only at the end apart', () => {
    const long = `t${'x'.repeat(62)}`;
    const first = contentIndexName(long, ['column_one'], false);
    const second = contentIndexName(long, ['column_two'], false);
    expect(Buffer.byteLength(first)).toBe(MAX_INTERNAL_NAME_BYTES);
    expect(first).toMatch(/^quire_idx:tx+~[0-9a-f]{16}$/);
    expect(second).not.toBe(first);
    expect(contentIndexName(long, ['column_one'], false)).toBe(first);
  });
});
