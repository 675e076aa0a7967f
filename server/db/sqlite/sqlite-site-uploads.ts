import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, relative, resolve, sep } from 'node:path';
import { type CopiedMedia, SiteCopyError } from '../../backup/site-copy.js';
import { sniffImage } from '../../media/image-sniffing.js';
import { listMediaFiles, mediaFileLocation, readMediaFile, setAsideLocation } from '../../media/media-files.js';
import type { SiteUploads } from '../database.js';

/**
 * The uploads of a SQLite site, as a site copy reads and writes them: files in its media folder.
 * A copy writes them before its transaction commits and removes the ones it made if it fails.
 * `checkRoot`: the folder was given (a backup's), so it is checked down from its own entry.
 */
export function sqliteSiteUploads(root: string, checkRoot: boolean): SiteUploads {
  return {
    async *read() {
      for (const file of await listMediaFiles(root)) {
        // Never through a symlink.
        const bytes = await readMediaFile(root, file.path, { checkRoot });
        // PostgreSQL keeps each upload's MIME type; a file that is no known image keeps a neutral one.
        const type = sniffImage(bytes)?.type ?? 'application/octet-stream';
        yield { path: file.path, type, bytes, origin: resolve(root, file.path) };
      }
    },
    async count() {
      return (await listMediaFiles(root)).length;
    },
    // Files already there stay; copied ones are written over them.
    replaceable: async () => 0,
    clear: async () => {},
    async write(_db, media: CopiedMedia) {
      const location = mediaFileLocation(root, media.path);
      if (!location) throw new SiteCopyError(`the upload ${media.path} has no valid media path`);
      const existed = await stat(location).then(
        () => true,
        () => false,
      );
      await mkdir(dirname(location), { recursive: true });
      await writeFile(location, media.bytes);
      return existed ? null : () => rm(location, { force: true });
    },
    // In `.set-aside/` of the media folder, as the media store sets files aside.
    async setAside(path, bytes) {
      const kept = await setAsideLocation(root, path);
      await writeFile(kept, bytes, { flag: 'wx' });
      return { kept: relative(dirname(root), kept).split(sep).join('/'), undo: () => rm(kept, { force: true }) };
    },
  };
}
