import { type Kysely, sql } from 'kysely';
import type { CopiedMedia } from '../../backup/site-copy.js';
import type { SiteUploads } from '../database.js';
import type { QuireDatabase } from '../schema.js';
import { MEDIA_TABLE } from './postgres-media-repository.js';

type AnyDb = Kysely<Record<string, Record<string, unknown>>>;

function loose(db: Kysely<QuireDatabase> | Kysely<unknown>): AnyDb {
  return db as unknown as AnyDb;
}

/**
 * The uploads of a PostgreSQL site, as a site copy reads and writes them: rows of `quire_media`,
 * written in the copy's transaction.
 */
export function postgresSiteUploads(database: Kysely<QuireDatabase>): SiteUploads {
  return {
    async *read(db) {
      const media = loose(db);
      const paths = await media.selectFrom(MEDIA_TABLE).select('path').orderBy('path').execute();
      for (const { path } of paths) {
        const row = await media
          .selectFrom(MEDIA_TABLE)
          .select(['type', 'bytes'])
          .where('path', '=', String(path))
          .executeTakeFirstOrThrow();
        yield { path: String(path), type: String(row.type), bytes: row.bytes as Buffer };
      }
    },
    async count() {
      const row = await sql<{ n: string }>`select count(*) as n from ${sql.table(MEDIA_TABLE)}`.execute(database);
      return Number(row.rows[0]?.n ?? 0);
    },
    async replaceable(db) {
      const row = await loose(db)
        .selectFrom(MEDIA_TABLE)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async clear(db) {
      await loose(db).deleteFrom(MEDIA_TABLE).execute();
    },
    async write(db, media: CopiedMedia) {
      await loose(db)
        .insertInto(MEDIA_TABLE)
        .values({ path: media.path, type: media.type, size: media.bytes.length, bytes: media.bytes })
        .execute();
      return null;
    },
    // A table keeps no second copy: the copy's source (a backup folder, another database) still has it.
    setAside: async () => null,
  };
}
