import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { postgresEngine } from '../postgres/postgres-engine.js';
import { sqliteEngine } from '../sqlite/sqlite-engine.js';
import { addsColumns, ID_SLOT, MarkedGets, markColumns, type RowExtra, splitMarks } from './read-marks.js';

const schedule: RowExtra = { name: 'quire:schedule', select: () => sql`null` };

describe('read marks', () => {
  it('add nothing on SQLite without extras, and give its rows back as they are', () => {
    expect(addsColumns(sqliteEngine, [])).toBe(false);
    expect(markColumns(sqliteEngine, 'news', [])).toEqual([]);
    const rows = [{ id: 'a', title: 'One' }];
    const split = splitMarks(sqliteEngine, rows, []);
    expect(split.rows[0]).toBe(rows[0]);
    expect(split).toMatchObject({ marks: null, extras: [] });
  });

  it('split PostgreSQL rows into stored rows, the statement’s marks and each row’s extras', () => {
    expect(markColumns(postgresEngine, 'news', [schedule])).toHaveLength(2);
    const read = [
      { id: 'a', title: 'One', 'quire:schedule': { status: 'published' }, 'quire:changes': '16384:7:42' },
      { id: 'b', title: 'Two', 'quire:schedule': null, 'quire:changes': '16384:7:42' },
    ];
    expect(splitMarks(postgresEngine, read, [schedule])).toEqual({
      rows: [
        { id: 'a', title: 'One' },
        { id: 'b', title: 'Two' },
      ],
      marks: { registry: 7, changes: '16384:7:42' },
      extras: [{ 'quire:schedule': { status: 'published' } }, { 'quire:schedule': null }],
    });
  });

  it('have no marks when no row came back (the statement saw nothing to read them from)', () => {
    expect(splitMarks(postgresEngine, [], [schedule])).toEqual({ rows: [], marks: null, extras: [] });
  });

  it('compile a marked get once per table and extras, binding each id as its last parameter', () => {
    const db = new Kysely<Record<string, Record<string, unknown>>>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (kysely) => new PostgresIntrospector(kysely),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const param: RowExtra = { name: 'quire:param', select: () => sql`${'kept'}::text` };
    const gets = new MarkedGets();
    expect(gets.get('news', [param])).toBeUndefined();
    const compile = (extras: RowExtra[]) =>
      db
        .selectFrom('news')
        .selectAll()
        .select(markColumns(postgresEngine, 'news', extras))
        .where(sql.id('id'), '=', ID_SLOT)
        .compile();
    const statement = gets.set('news', [param], compile([param]));
    expect(gets.get('news', [param])).toBe(statement);
    expect(gets.get('news', [schedule])).toBeUndefined();
    expect(gets.get('pages', [param])).toBeUndefined();
    const one = statement('a');
    expect(one.sql).toBe(compile([param]).sql);
    expect(one.parameters).toEqual(['kept', 'news', 'a']);
    expect(statement('b').parameters).toEqual(['kept', 'news', 'b']);
    // A statement whose id is not its last parameter is refused rather than bound wrongly.
    const idFirst = db
      .selectFrom('news')
      .selectAll()
      .where(sql.id('id'), '=', ID_SLOT)
      .where('title', '=', 'x')
      .compile();
    expect(() => gets.set('news', [], idFirst)).toThrow(/last parameter/);
  });
});
