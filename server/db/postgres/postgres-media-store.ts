import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { parseRelativeMediaPath } from '../../../common/media-rules.js';
import type { MediaFile } from '../../media/media-files.js';
import {
  type FoundMedia,
  type MediaStore,
  type PendingMedia,
  receiveToTemporaryFile,
  sweepIncomingFolder,
} from '../../media/media-store.js';
import type { QuireDatabase } from '../schema.js';
import { deleteMedia, insertMedia, listMedia, readMedia } from './postgres-media-repository.js';

/**
 * Where an upload waits on this machine until it is complete and sniffed: the same checks as the
 * file store, and no half-received file ever reaches the database. One folder per process, so a
 * server's sweep never takes a file another server on this machine is still receiving.
 */
export const POSTGRES_INCOMING_DIR = join(tmpdir(), 'quire-incoming', String(process.pid));

/**
 * Uploads kept in the PostgreSQL database itself, so every server sharing it serves every upload.
 * The bytes are inserted in one statement when the upload is committed; a 201 follows only after
 * PostgreSQL has committed it.
 */
export class PostgresMediaStore implements MediaStore {
  constructor(private readonly db: Kysely<QuireDatabase>) {}

  receive(source: Readable, maxBytes: number): Promise<PendingMedia> {
    return receiveToTemporaryFile(POSTGRES_INCOMING_DIR, source, maxBytes, async (sink, name, kind, replacing) => {
      try {
        const path = [...name.folders, name.fileName].join('/');
        await insertMedia(this.db, { path, type: kind.type, bytes: await sink.contents() }, replacing);
      } finally {
        await sink.discard();
      }
    });
  }

  async find(relative: string): Promise<FoundMedia | null> {
    // Only generated names are looked up: anything else (`..`, encoded slashes, dotfiles) is no file.
    if (!parseRelativeMediaPath(relative)) return null;
    const bytes = await readMedia(this.db, relative);
    return bytes ? { bytes } : null;
  }

  list(): Promise<MediaFile[]> {
    return listMedia(this.db);
  }

  async remove(relative: string): Promise<void> {
    if (parseRelativeMediaPath(relative)) await deleteMedia(this.db, [relative]);
  }

  sweepIncoming(now?: number): Promise<void> {
    return sweepIncomingFolder(POSTGRES_INCOMING_DIR, now);
  }

  /**
   * Nothing is kept aside here: a file reaches this table only by an upload (cleaned), a site copy
   * or a restore, whose source still holds the file as it was.
   */
  async setAside(relative: string, replacement: Buffer | null): Promise<null> {
    if (!parseRelativeMediaPath(relative)) throw new Error(`media/${relative} is not a stored file`);
    if (replacement) await insertMedia(this.db, { path: relative, type: 'image/svg+xml', bytes: replacement }, true);
    else await deleteMedia(this.db, [relative]);
    return null;
  }
}
