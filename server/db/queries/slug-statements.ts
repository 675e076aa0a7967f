import { type Compilable, type CompiledQuery, type Kysely, type SqlBool, sql } from 'kysely';
import type { RowChangeCounter } from '../engine.js';
import type { CompiledWrites } from './compiled-writes.js';
import type { StoredRow } from './content-rows.js';

/**
 * The statements that pick a free slug (content/slug-picker.ts): the values from a prefix on, and,
 * where the engine keeps gap tokens (PostgreSQL's `RowChangeCounter.gapToken`), candidates probed
 * with the token read in the same statement. Compiled once per table and column (compiled-writes.ts).
 */

/** The values a slug column holds from a prefix on, with the gap token where it was read (else null). */
export interface SlugRun {
  values: Set<string>;
  gapToken: string | null;
}

/** The first free of some candidate slugs (its index among them, or null), with the gap token. */
export interface SlugProbe {
  free: number | null;
  gapToken: string;
}

type Db = Kysely<Record<string, StoredRow>>;

/** A raw statement as something `CompiledWrites.statement` compiles. */
const compilable = (db: Db, read: { compile: (db: Db) => CompiledQuery }): Compilable<unknown> => ({
  compile: () => read.compile(db),
});

/**
 * The values of `column` starting with `prefix` (rows other than `exceptId`), with `counter`'s gap
 * token of `table` read in the same statement when given.
 */
export function slugRunStatement(
  db: Db,
  writes: CompiledWrites,
  counter: RowChangeCounter | undefined,
  at: { table: string; column: string; prefix: string; exceptId?: string },
): CompiledQuery {
  const { table, column, prefix, exceptId } = at;
  // The range lets the column's index find the candidates; substr keeps the test exact.
  const end = `${prefix}\u{10FFFF}`;
  const bound = [prefix, end, prefix.length, prefix, ...(exceptId === undefined ? [] : [exceptId])];
  return writes.statement(
    `slugs\u0000${table}\u0000${column}\u0000${exceptId === undefined}\u0000${counter !== undefined}`,
    counter ? [table, ...bound] : bound,
    () => {
      const found = db
        .selectFrom(table)
        .select(sql<string>`${sql.id(column)}`.as('value'))
        .where(sql.id(column), '>=', prefix)
        .where(sql.id(column), '<', end)
        .where(sql<SqlBool>`substr(${sql.id(column)}, 1, ${prefix.length}) = ${prefix}`);
      const query = exceptId === undefined ? found : found.where(sql.id('id'), '!=', exceptId);
      if (!counter) return query;
      // One row at least, with the token, where no value starts with the prefix.
      return compilable(
        db,
        sql`select g.token, s.value from (select ${counter.gapToken(table)} as token) as g
          left join (${query}) as s on true`,
      );
    },
  );
}

/** `slugRunStatement`'s rows as a SlugRun (`withToken`: the statement read the token). */
export function slugRunOf(rows: readonly StoredRow[], withToken: boolean): SlugRun {
  const values = new Set(rows.filter((row) => row.value !== null).map((row) => String(row.value)));
  return { values, gapToken: withToken ? String(rows[0]?.token) : null };
}

/** The first of `candidates` no row but `exceptId` holds in `column`, with `table`'s gap token. */
export function slugProbeStatement(
  db: Db,
  writes: CompiledWrites,
  counter: RowChangeCounter,
  at: { table: string; column: string; candidates: string[]; exceptId: string },
): CompiledQuery {
  const { table, column, candidates, exceptId } = at;
  return writes.statement(`probe\u0000${table}\u0000${column}`, [candidates, exceptId, table], () =>
    compilable(
      db,
      sql`select (select min(c.i) from unnest(cast(${candidates} as text[])) with ordinality as c(slug, i)
        where not exists (select 1 from ${sql.id(table)} where ${sql.id(column)} = c.slug and ${sql.id('id')} != ${exceptId})) as free,
        ${counter.gapToken(table)} as token`,
    ),
  );
}

/** `slugProbeStatement`'s row as a SlugProbe. */
export function slugProbeOf(row: StoredRow | undefined): SlugProbe {
  const free = row?.free === null || row?.free === undefined ? null : Number(row.free) - 1;
  return { free, gapToken: String(row?.token) };
}
