import { type AliasableExpression, type AliasedExpression, CompiledQuery } from 'kysely';
import type { DatabaseEngine } from '../engine.js';

/**
 * What a read's own statement saw besides its rows, on an engine whose servers share the database
 * (PostgreSQL, where every statement is a round trip): the content-type registry's version and the
 * table's change number. Read in the page's statement they cost no statement of their own (three
 * otherwise: the registry's version before it, the count's change number and the page's schedules
 * after it), and they are what that very snapshot held.
 */
export interface ReadMarks {
  /** The registry's version (content-type changes by any server), which the change number holds. */
  registry: number;
  /** The table's change number (see engine.ts `RowChangeCounter`). */
  changes: string;
}

/** A value read beside each row in the same statement, by a subquery on the row (its schedule). */
export interface RowExtra {
  /** Its column in the statement: `quire:` and a name, which no content column can be. */
  name: `quire:${string}`;
  /** The subquery, on a row of `table`. */
  select(table: string): AliasableExpression<unknown>;
}

/** Rows a read found, what its statement saw (null where the engine has no marks, or no row came back), and each row's extras. */
export interface MarkedRows<Row> {
  rows: Row[];
  marks: ReadMarks | null;
  /** The values of the read's extras, by name, one object per row (empty when it had none). */
  extras: Record<string, unknown>[];
}

const CHANGES = 'quire:changes';

/** The columns a read of `table` adds to its rows: its extras, then the marks where the engine keeps them. */
export function markColumns(
  engine: DatabaseEngine,
  table: string,
  extras: readonly RowExtra[],
): AliasedExpression<unknown, string>[] {
  const columns: AliasedExpression<unknown, string>[] = extras.map((extra) => extra.select(table).as(extra.name));
  if (engine.rowChanges) columns.push(engine.rowChanges.changeNumber(table).as(CHANGES));
  return columns;
}

/** Whether a read of this engine with these extras adds columns (`markColumns` is not empty). */
export function addsColumns(engine: DatabaseEngine, extras: readonly RowExtra[]): boolean {
  return extras.length > 0 || engine.rowChanges !== undefined;
}

/** Rows read with `markColumns`, split into the stored rows, the marks and the extras. */
export function splitMarks<Row extends Record<string, unknown>>(
  engine: DatabaseEngine,
  read: Row[],
  extras: readonly RowExtra[],
): MarkedRows<Row> {
  if (!addsColumns(engine, extras)) return unmarked(read);
  const first = read[0];
  const changes = first === undefined || !engine.rowChanges ? undefined : String(first[CHANGES]);
  const marks =
    changes === undefined || !engine.rowChanges
      ? null
      : { registry: engine.rowChanges.registryVersionOf(changes), changes };
  const added = new Set<string>([CHANGES, ...extras.map((extra) => extra.name)]);
  const rows: Row[] = [];
  const values: Record<string, unknown>[] = [];
  for (const marked of read) {
    const row: Record<string, unknown> = {};
    const own: Record<string, unknown> = {};
    // for-in, not Object.entries: no array per column of every row read.
    for (const name in marked) {
      if (!added.has(name)) row[name] = marked[name];
      else if (name !== CHANGES) own[name] = marked[name];
    }
    rows.push(row as Row);
    values.push(own);
  }
  return { rows, marks, extras: extras.length > 0 ? values : [] };
}

/** Rows read without marks or extras. */
export function unmarked<Row>(rows: Row[]): MarkedRows<Row> {
  return { rows, marks: null, extras: [] };
}

/** Where a get's id goes while its statement is compiled (MarkedGets). */
export const ID_SLOT = '\u0000quire:id';

/**
 * Gets' statements (a row by id, with its extras and the engine's marks; `null` extras: the row
 * alone), compiled once per table and extras: building and compiling one each time was about a
 * twentieth of a get's time on PostgreSQL. Kept by the extras' names (an extra keeps its name and
 * subquery).
 */
export class MarkedGets {
  private readonly statements = new Map<string, (id: string) => CompiledQuery>();

  /** The statement of a get of `table` with `extras`, if compiled already. */
  get(table: string, extras: readonly RowExtra[] | null): ((id: string) => CompiledQuery) | undefined {
    return this.statements.get(keyOf(table, extras));
  }

  /** Keeps `compiled` (its id given as ID_SLOT) and returns it as a statement taking the id. */
  set(table: string, extras: readonly RowExtra[] | null, compiled: CompiledQuery): (id: string) => CompiledQuery {
    // The id is the last parameter: the select list's come before the WHERE's.
    if (compiled.parameters.at(-1) !== ID_SLOT) throw new Error('the id is not the last parameter of a get');
    const before = compiled.parameters.slice(0, -1);
    const statement = (id: string) => CompiledQuery.raw(compiled.sql, [...before, id]);
    this.statements.set(keyOf(table, extras), statement);
    return statement;
  }
}

function keyOf(table: string, extras: readonly RowExtra[] | null): string {
  return extras ? `${table}\u0000${extras.map((extra) => extra.name).join('\u0000')}` : `${table}\u0001`;
}
