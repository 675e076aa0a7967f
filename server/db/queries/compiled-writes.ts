import { type Compilable, CompiledQuery, type Kysely } from 'kysely';

/** Shapes kept per dialect: an update's shape is its set of changed columns, so they are bounded but many. */
const MAX_SHAPES = 512;

/**
 * A row write's statements (its row's INSERT or UPDATE, the read of the slugs it may take, the
 * row's lock where the engine locks rows, its revision) compiled once per shape (table and
 * columns) and dialect, then bound to each write's values. Kysely building and compiling them (its
 * operation-node visitor, freezing, value parsing) for every write costs more than SQLite parsing
 * the statement, which its statement cache skips anyway. Gets do the same per table (read-marks.ts).
 */
export class CompiledWrites {
  private readonly sqlOfShape = new Map<string, string>();

  /** How many shapes are kept. */
  get size(): number {
    return this.sqlOfShape.size;
  }

  /**
   * `build()` compiled, or the SQL it compiled to before for `shape`, bound to `values`. A shape is
   * kept only when the compiled parameters are exactly `values`, in order (a value Kysely writes
   * into the SQL instead would bind wrongly): otherwise it compiles every time, as before.
   */
  statement(shape: string, values: readonly unknown[], build: () => Compilable<unknown>): CompiledQuery {
    const known = this.sqlOfShape.get(shape);
    if (known !== undefined) return CompiledQuery.raw(known, [...values]);
    const compiled = build().compile();
    if (sameValues(compiled.parameters, values)) {
      if (this.sqlOfShape.size >= MAX_SHAPES) this.sqlOfShape.clear();
      this.sqlOfShape.set(shape, compiled.sql);
    }
    return compiled;
  }
}

const byAdapter = new WeakMap<object, CompiledWrites>();

/** The compiled writes of `db`'s dialect (a transaction shares its database's). */
export function compiledWritesOf(db: Kysely<unknown>): CompiledWrites {
  const adapter = db.getExecutor().adapter;
  let writes = byAdapter.get(adapter);
  if (!writes) {
    writes = new CompiledWrites();
    byAdapter.set(adapter, writes);
  }
  return writes;
}

function sameValues(parameters: readonly unknown[], values: readonly unknown[]): boolean {
  return parameters.length === values.length && parameters.every((parameter, i) => parameter === values[i]);
}
