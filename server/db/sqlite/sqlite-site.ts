import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { recordRestore } from '../../audit/restore-audit.js';
import { findUnusedMedia, pruneUnusedMedia } from '../../media/media-prune.js';
import { mediaDirFor } from '../../media/media-store.js';
import type { DatabaseSite } from '../database.js';
import { backupFile, requireQuireDatabase } from './sqlite-backup.js';
import { openDatabase } from './sqlite-database.js';
import { openSqliteFile } from './sqlite-dialect.js';
import { mediaReferenceSources } from './sqlite-media-references.js';
import { restoreDatabase } from './sqlite-restore.js';

/**
 * A SQLite file as the commands find it: backups and restores copy the file and `media/` beside
 * it, pruning reads its rows through a read-only connection (a server may have it open).
 */
export function sqliteSite(dbFile: string): DatabaseSite {
  return {
    description: dbFile,
    exists: () => existsSync(dbFile),
    requireQuireDatabase: () => requireQuireDatabase(dbFile, 'database', {}),
    backupsBesideDatabase: true,
    open: (options = {}) => openDatabase(dbFile, { ...options.sqlite, memorySearch: options.memorySearch }),

    async pruneMedia(deleting) {
      const root = mediaDirFor(dbFile);
      requireQuireDatabase(dbFile, 'database', {});
      const raw = openSqliteFile(dbFile, { readonly: true });
      try {
        const sources = mediaReferenceSources(raw);
        return deleting ? await pruneUnusedMedia(root, sources) : await findUnusedMedia(root, sources);
      } finally {
        raw.close();
      }
    },

    async backup({ progress }) {
      progress.update(`Backing up ${dbFile} and its media...`);
      const written = await backupFile(dbFile).finally(() => progress.done());
      return `Backed up ${dbFile} and its media to ${written}`;
    },

    async restore(backup, { progress }) {
      progress.update(`Restoring ${resolve(backup)} into ${dbFile}...`);
      const { previous, mediaFiles } = await restoreDatabase(backup, dbFile).finally(() => progress.done());
      const restored = await openDatabase(dbFile);
      await recordRestore(restored, resolve(backup), { engine: 'sqlite', media: mediaFiles }).finally(() =>
        restored.close(),
      );
      const what =
        mediaFiles === null
          ? `${dbFile} (the backup has no media; media/ was left as it was)`
          : `${dbFile} and ${mediaFiles} media files`;
      const kept = previous ? `; the previous database and media were kept in ${previous}` : '';
      return `Restored ${what} from ${resolve(backup)}${kept}`;
    },
  };
}
