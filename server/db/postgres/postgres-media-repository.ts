import { type ColumnType, type Kysely, sql } from 'kysely';
import type { MediaFile } from '../../media/media-files.js';
import { type MediaReferenceSource, mediaPathsIn } from '../../media/media-references.js';
import { type QuireDatabase, REGISTRY_TABLE } from '../schema.js';

/**
 * Uploads kept in a PostgreSQL database: the `quire_media` table (migration 010), and where the
 * content rows name media paths. Paths are stored as they are under `/media/` (`2026/03/<id>.png`).
 */

/** The table of uploaded files on PostgreSQL. */
export const MEDIA_TABLE = 'quire_media';

interface MediaTables {
  quire_media: { path: string; type: string; size: number; bytes: Buffer; created_at: ColumnType<Date, never, never> };
}

/** One upload to keep. */
export interface NewMediaRow {
  path: string;
  type: string;
  bytes: Buffer;
}

function media(db: Kysely<QuireDatabase>): Kysely<MediaTables> {
  return db as unknown as Kysely<MediaTables>;
}

/**
 * Stores an upload in one statement (its own transaction): once it returns, the file is committed.
 * `replacing` puts new bytes at a path already stored (a replaced file keeps its path).
 */
export async function insertMedia(db: Kysely<QuireDatabase>, row: NewMediaRow, replacing = false): Promise<void> {
  const values = { path: row.path, type: row.type, size: row.bytes.length, bytes: row.bytes };
  const insert = media(db).insertInto(MEDIA_TABLE).values(values);
  if (!replacing) {
    await insert.execute();
    return;
  }
  await insert
    .onConflict((conflict) =>
      conflict.column('path').doUpdateSet({ type: values.type, size: values.size, bytes: values.bytes }),
    )
    .execute();
}

/** The bytes of a stored upload, or null. */
export async function readMedia(db: Kysely<QuireDatabase>, path: string): Promise<Buffer | null> {
  const row = await media(db).selectFrom(MEDIA_TABLE).select('bytes').where('path', '=', path).executeTakeFirst();
  return row?.bytes ?? null;
}

/** Every stored upload with its size and upload time (never its bytes), sorted by path. */
export async function listMedia(db: Kysely<QuireDatabase>): Promise<MediaFile[]> {
  const rows = await media(db).selectFrom(MEDIA_TABLE).select(['path', 'size', 'created_at']).orderBy('path').execute();
  return rows.map((row) => ({ path: row.path, size: row.size, mtimeMs: row.created_at.getTime() }));
}

/** Deletes stored uploads by path (`quire media prune --yes`); a path already gone is no error. */
export async function deleteMedia(db: Kysely<QuireDatabase>, paths: readonly string[]): Promise<void> {
  for (let start = 0; start < paths.length; start += 1000) {
    await media(db)
      .deleteFrom(MEDIA_TABLE)
      .where('path', 'in', paths.slice(start, start + 1000))
      .execute();
  }
}

/** Text that may hold a media path: the check PostgreSQL runs on a row's text before it is sent. */
const MEDIA_MARK = '%/media/%';

/**
 * Every content row that names a media file in any column. A row's text form (`t::text`) holds
 * every value, JSON included; its quoting doubles quotes and backslashes, which a media path never
 * contains, so the paths read from it are the paths in the values.
 */
export function postgresContentRowReferences(db: Kysely<QuireDatabase>): MediaReferenceSource {
  return {
    async collect(found) {
      const tables = await db.selectFrom(REGISTRY_TABLE).select('table_name').execute();
      for (const { table_name } of tables) {
        const { rows } = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} as t
          where t::text like ${MEDIA_MARK}`.execute(db);
        for (const { row } of rows) for (const path of mediaPathsIn(row)) found.add(path);
      }
    },
  };
}
