import { isAscii } from '../../common/slug-rules.js';

/**
 * Whether a table's rows, taken in rowid order, are in `id` order too. Quire's ids are time-ordered
 * and rows get increasing rowids as they are created, so this usually holds; while it does, a page
 * of search matches in id order (lists' default order) is a slice of the matches' bitmap, with no
 * statement walking or sorting rows. It is checked, never assumed:
 *
 * - The build sees every row in rowid order and compares each id with the one before.
 * - A row read again after a write (inserted, updated) is compared with the ids of the rows just
 *   before and after it by rowid, read in the same statement (`neighbours`). In a sequence that was
 *   in order, a changed row between its neighbours keeps it in order; a deleted row cannot break it.
 *   Rows are read again when a search column changes (the search triggers note them): an id never
 *   changes alone, as it is a system field no write of the server sets after the row's creation
 *   (row-input.ts ignores it), and a write by another connection starts a new build.
 * - Ids are compared as JavaScript strings, which orders ASCII text as SQLite's binary collation
 *   does; any id that is not ASCII text (a number, say), a table whose statement names a collation,
 *   or a table without an id column, and the order is taken as not holding.
 *
 * Once it does not hold, it stays so for the index's life (a new build checks again).
 */
export class IdOrder {
  private inOrder: boolean;
  private lastId: string | null = null;

  /** `usable`: the table has an `id` column compared in binary order (see the module comment). */
  constructor(usable: boolean) {
    this.inOrder = usable;
  }

  /** Whether rowid order is id order for every row seen. */
  get holds(): boolean {
    return this.inOrder;
  }

  /** The id of the next row of the build (rows arrive in increasing rowid order). */
  append(id: unknown): void {
    if (!this.inOrder) return;
    if (!comparable(id) || (this.lastId !== null && id <= this.lastId)) {
      this.inOrder = false;
      return;
    }
    this.lastId = id;
  }

  /** A row read again: its id and those of its neighbours by rowid (null where there is none). */
  check(id: unknown, before: unknown, after: unknown): void {
    if (!this.inOrder) return;
    const inOrder =
      comparable(id) &&
      (before === null || (comparable(before) && before < id)) &&
      (after === null || (comparable(after) && id < after));
    if (!inOrder) this.inOrder = false;
  }
}

function comparable(id: unknown): id is string {
  return typeof id === 'string' && isAscii(id);
}
