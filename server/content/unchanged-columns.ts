import type { StoredRow } from '../db/repositories/content-repository.js';

/**
 * Leaves out of an update's `changes` the columns it would set to the value they hold in `current`.
 * SQLite rewrites the entries of every index on a column an UPDATE sets, and runs the search
 * trigger of a search column it names, even when the value stays the same (several times the pages
 * of an update of updated_at alone), and editors save whole forms, so most of a PUT is unchanged. Only
 * identical stored values count as unchanged: a value an engine reads back in another form (a
 * number as text) is still written.
 */
export function withoutUnchanged(changes: StoredRow, current: StoredRow): void {
  for (const name of Object.keys(changes)) {
    if (Object.is(changes[name], current[name])) delete changes[name];
  }
}
