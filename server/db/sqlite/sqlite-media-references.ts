import { type MediaReferenceSource, mediaPathsIn } from '../../media/media-references.js';
import { REGISTRY_TABLE } from '../schema.js';
import type { SqliteHandle } from './sqlite-dialect.js';

/**
 * Where the database holds media paths. Every source that can name a media file is listed in
 * `mediaReferenceSources`, which pruning and the unused count both use: row revisions, when they
 * come, add their table there and nothing else changes.
 */

/** Every place in the database that can name a media file. */
export function mediaReferenceSources(raw: SqliteHandle): MediaReferenceSource[] {
  return [contentRowReferences(raw)];
}

/** Text that may hold a media path: the check SQLite runs before a value is read at all. */
const MEDIA_MARK = '/media/';

/**
 * Every value of every column of every content table the registry names (any column: an image
 * holds a path, Markdown and text may embed one, tags and meta are JSON text). SQLite keeps only
 * the rows where some value contains `/media/`, so a table without media paths costs one scan.
 */
export function contentRowReferences(raw: SqliteHandle): MediaReferenceSource {
  return {
    async collect(found) {
      const tables = raw.prepare(`select table_name from ${REGISTRY_TABLE}`).pluck().all() as string[];
      for (const table of tables) {
        const columns = raw.prepare('select name from pragma_table_info(?)').pluck().all(table) as string[];
        if (columns.length === 0) continue;
        const list = columns.map(quoteId).join(', ');
        const anyHasMark = columns.map((column) => `instr(${quoteId(column)}, ?) > 0`).join(' or ');
        const statement = raw.prepare(`select ${list} from ${quoteId(table)} where ${anyHasMark}`).raw();
        for (const values of statement.iterate(...columns.map(() => MEDIA_MARK)) as Iterable<unknown[]>) {
          for (const value of values) {
            if (typeof value === 'string') for (const path of mediaPathsIn(value)) found.add(path);
          }
        }
      }
    },
  };
}

function quoteId(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
