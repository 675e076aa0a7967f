import { resolve } from 'node:path';
import { recordRestore } from '../../audit/restore-audit.js';
import { findUnusedMedia, type PrunableMedia, pruneUnusedMedia } from '../../media/media-prune.js';
import type { DatabaseSite } from '../database.js';
import { backupPostgres, restoreIntoPostgres } from './postgres-backup.js';
import { postgresBackupPlace } from './postgres-backup-place.js';
import { openPostgres, type PostgresQuireDb } from './postgres-database.js';
import { deleteMedia, listMedia, postgresContentRowReferences } from './postgres-media-repository.js';
import { describeTarget, type PostgresTarget } from './postgres-url.js';

/**
 * A PostgreSQL database as the commands find it: backups go to `backups/` in the app-data folder
 * (or `dir`), in the SQLite backup format; uploads are rows of `quire_media`.
 */
export function postgresSite(target: PostgresTarget): DatabaseSite {
  async function withDatabase<T>(work: (database: PostgresQuireDb) => Promise<T>): Promise<T> {
    const database = await openPostgres(target);
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  }
  return {
    description: describeTarget(target),
    exists: () => true,
    requireQuireDatabase: () => {},
    backupsBesideDatabase: false,
    open: (options = {}) => openPostgres(target, { ...options.postgres, memorySearch: options.memorySearch }),

    pruneMedia: (deleting) =>
      withDatabase(async (database) => {
        const sources = [postgresContentRowReferences(database.db)];
        const store: PrunableMedia = {
          list: () => listMedia(database.db),
          remove: (files) =>
            deleteMedia(
              database.db,
              files.map((file) => file.path),
            ),
        };
        return deleting ? await pruneUnusedMedia(store, sources) : await findUnusedMedia(() => store.list(), sources);
      }),

    async backup({ dir, progress }) {
      const place = postgresBackupPlace(target, dir);
      return withDatabase(async (database) => {
        progress.update(`Backing up ${database.description} and its uploads...`);
        const written = await backupPostgres(database, place).finally(() => progress.done());
        return `Backed up ${database.description} and its uploads to ${written}`;
      });
    },

    async restore(backup, { dir, force, progress }) {
      const place = postgresBackupPlace(target, dir);
      return withDatabase(async (database) => {
        progress.update(`Restoring ${resolve(backup)} into ${database.description}...`);
        const done = await restoreIntoPostgres(backup, database, {
          force,
          place,
          progress: progress.update,
        }).finally(() => progress.done());
        await recordRestore(database, resolve(backup), {
          engine: 'postgres',
          types: done.types,
          rows: done.rows,
          media: done.media,
        });
        const kept = done.previous ? `; the content it replaced was kept in ${done.previous}` : '';
        return `Restored ${done.types} content types, ${done.rows} rows and ${done.media} uploads from ${resolve(backup)} into ${database.description}; counts checked${kept}`;
      });
    },
  };
}
