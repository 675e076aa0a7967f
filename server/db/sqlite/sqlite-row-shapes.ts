import type Database from 'better-sqlite3';

/**
 * The rows of SQLite reads on the hot path, as objects made here from better-sqlite3's raw (array)
 * rows, with each statement's column names read once.
 *
 * better-sqlite3 builds a row object in C++, looking up and setting every column by name for every
 * row: for a page of rows that costs more than SQLite's own work, and more than making the objects
 * here from raw rows. Objects made here by assignment in column order also share one hidden class,
 * which formatting then reads.
 *
 * A statement's names (its `columns()`) are kept until the connection's schema changes: SQLite
 * prepares a statement again after a schema change, and a `select *` may then have other
 * columns (a renamed one). Every DDL statement this connection runs is prepared through
 * `SqliteStatements`, which counts them (`schemaChanges`); a row of another length than the names
 * kept also reads them again. Another process's schema change is not followed here, as the content
 * types are not either: on SQLite this process is the only one changing content types while it
 * serves (a restore needs the server stopped).
 */
export class SqliteRowShapes {
  private readonly shapes = new WeakMap<Database.Statement, Shape>();

  constructor(private readonly schemaChanges: () => number) {}

  /** Every row of a read statement, as objects keyed by column name. */
  all(statement: Database.Statement, parameters: readonly unknown[]): Record<string, unknown>[] {
    if (!statement.reader) return statement.all(...parameters) as Record<string, unknown>[];
    let shape = this.shapes.get(statement);
    if (shape && shape.schema !== this.schemaChanges()) shape = undefined;
    statement.raw(true);
    let rows: unknown[][];
    try {
      rows = statement.all(...parameters) as unknown[][];
    } finally {
      statement.raw(false);
    }
    // Read after the statement ran: a statement SQLite prepared again has its new columns by now.
    if (!shape || (rows.length > 0 && rows[0].length !== shape.names.length)) shape = this.shapeOf(statement);
    const { names } = shape;
    const made = new Array<Record<string, unknown>>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i];
      const object: Record<string, unknown> = {};
      if (shape.assignable) {
        for (let column = 0; column < names.length; column++) object[names[column]] = row[column];
      } else {
        for (let column = 0; column < names.length; column++) defineColumn(object, names[column], row[column]);
      }
      made[i] = object;
    }
    return made;
  }

  private shapeOf(statement: Database.Statement): Shape {
    const names = statement.columns().map((column) => column.name);
    // Assigning `__proto__` would set the prototype, not a property (better-sqlite3's own rows lose it so).
    const shape = { names, assignable: !names.includes('__proto__'), schema: this.schemaChanges() };
    this.shapes.set(statement, shape);
    return shape;
  }
}

/** A statement's column names, whether they can be assigned, and the schema they were read at. */
interface Shape {
  names: string[];
  assignable: boolean;
  schema: number;
}

function defineColumn(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}
