import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import {
  copyFile,
  type FileHandle,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  stat,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { dirname, join, relative as relativePath, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { UploadResponse } from '../../common/api-contract.js';
import { parseRelativeMediaPath } from '../../common/media-rules.js';
import { AppError } from '../errors/app-error.js';
import { type ImageKind, type ImageSize, imageSize, SNIFF_BYTES, sniffImage } from './image-sniffing.js';
import { listMediaFiles, type MediaFile, setAsideLocation } from './media-files.js';
import { type MediaName, newMediaName } from './media-path.js';

/** Default cap on one uploaded file: 10 MiB. */
export const DEFAULT_UPLOAD_LIMIT = 10 * 1024 * 1024;

/** Leading bytes kept in memory to read the pixel size (a JPEG's frame header follows its metadata). */
const HEAD_BYTES = 256 * 1024;

/** Folder under the media folder for files being received; a dot name, so it is never served. */
const INCOMING = '.incoming';

/** Incoming files older than this at start-up were left by a crash and are removed. */
const STALE_INCOMING_MS = 60 * 60 * 1000;

/** The media folder of a database: `media/` beside the database file. */
export function mediaDirFor(dbFile: string): string {
  return join(dirname(dbFile), 'media');
}

/** An upload received in full into a temporary file, not yet visible at its path. */
export interface PendingMedia {
  readonly kind: ImageKind;
  readonly size: number;
  /**
   * Runs `step` on the received file before it is kept: it may refuse it (by throwing) or rewrite it
   * in place (metadata stripped), and the size and pixel size the commit answers with follow.
   */
  prepare(step: UploadPreparation): Promise<void>;
  /**
   * Makes the file durable and visible at its generated path, or at `at` (a replacement of a
   * stored file of the same kind, which readers see whole: the old bytes, then the new).
   */
  commit(at?: MediaName): Promise<UploadResponse>;
  /** Removes the temporary file. */
  discard(): Promise<void>;
}

/** A check or rewrite of a received file in its temporary place (see `prepareUploadedImage`). */
export type UploadPreparation = (
  file: string,
  kind: ImageKind,
) => Promise<{ rewritten: boolean; size: ImageSize | null }>;

/** A stored file found for serving: on disk (served by express.static) or its bytes. */
export type FoundMedia = { readonly file: string } | { readonly bytes: Buffer };

/**
 * Where uploads are kept: a folder beside a SQLite database (`FileMediaStore`), or the PostgreSQL
 * database itself, so every server sharing it serves every upload. Either way an upload is
 * sniffed and size-capped while it streams in, and is visible at its generated path only once
 * it is durable.
 */
export interface MediaStore {
  /**
   * Reads one uploaded file to its end. Refuses (after reading it all, so the rest of the request
   * can still be parsed) a file that is empty (400), not an allowed image (415) or longer than
   * `maxBytes` (413); nothing is kept in those cases.
   */
  receive(source: Readable, maxBytes: number): Promise<PendingMedia>;
  /** The file a media path (the part after `/media/`) names, or null when there is none. */
  find(relative: string): Promise<FoundMedia | null>;
  /** Every stored file with its size and upload time, for the unused-media count. */
  list(): Promise<MediaFile[]>;
  /** Deletes the file a media path (the part after `/media/`) names; one already gone is no error. */
  remove(relative: string): Promise<void>;
  /** Removes what a crash left half-received; never fails. */
  sweepIncoming(now?: number): Promise<void>;
  /**
   * Puts `replacement` at a media path (the part after `/media/`) in place of its stored file (or
   * nothing: the path then has no file), keeping that file aside, byte for byte, where it is never
   * served, listed, backed up as media or pruned. Returns where it was kept, for a log line, or
   * null when the store keeps no copy (its files' source still holds them).
   */
  setAside(relative: string, replacement: Buffer | null): Promise<string | null>;
}

/**
 * Receives one upload into a temporary file under `incomingDir`: the part every store shares.
 * `store` is given the finished temporary file and the name (generated, or the stored file's it
 * replaces, then `replacing` is true), and makes it durable.
 */
export async function receiveToTemporaryFile(
  incomingDir: string,
  source: Readable,
  maxBytes: number,
  store: (sink: ReceivedFile, name: MediaName, kind: ImageKind, replacing: boolean) => Promise<void>,
): Promise<PendingMedia> {
  const sink = new UploadSink(incomingDir, maxBytes);
  try {
    await pipeline(source, sink);
  } catch (error) {
    await sink.discard();
    throw error;
  }
  if (sink.refusal || !sink.kind) {
    await sink.discard();
    throw sink.refusal ?? new AppError('internal_error', 'The upload could not be read');
  }
  const { kind } = sink;
  let pixels = imageSize(kind, sink.head());
  return {
    kind,
    get size() {
      return sink.size;
    },
    prepare: async (step) => {
      const prepared = await sink.rewrite((file) => step(file, kind));
      if (prepared.size) pixels = prepared.size;
    },
    commit: async (at) => {
      const name = at ?? newMediaName(kind);
      await store(sink, name, kind, at !== undefined);
      return { path: name.path, type: kind.type, size: sink.size, ...(pixels ?? {}) };
    },
    discard: () => sink.discard(),
  };
}

/** A fully received upload in its temporary file, as a store's commit sees it. */
export interface ReceivedFile {
  /** fsync, close, rename into `folder/fileName`, then fsync the folders so the rename survives a crash. */
  commit(folder: string, fileName: string, root: string): Promise<void>;
  /** Closes the temporary file and reads it back whole (a store that keeps bytes elsewhere). */
  contents(): Promise<Buffer>;
  /** Closes and removes the temporary file. */
  discard(): Promise<void>;
}

/**
 * The media folder: receives uploads (sniffed, size-capped, written to a temporary name, fsynced,
 * then renamed to a generated name) and finds stored files for serving.
 */
export class FileMediaStore implements MediaStore {
  constructor(readonly root: string) {}

  receive(source: Readable, maxBytes: number): Promise<PendingMedia> {
    return receiveToTemporaryFile(join(this.root, INCOMING), source, maxBytes, (sink, name) =>
      sink.commit(join(this.root, ...name.folders), name.fileName, this.root),
    );
  }

  async find(relative: string): Promise<FoundMedia | null> {
    const file = await this.locate(relative);
    return file ? { file } : null;
  }

  list(): Promise<MediaFile[]> {
    return listMediaFiles(this.root);
  }

  async remove(relative: string): Promise<void> {
    const file = await this.locate(relative);
    if (file) await unlink(file).catch(() => undefined);
  }

  /**
   * The file a media path (the part after `/media/`) names, or null when the path is not a
   * generated name, the file does not exist, or it resolves outside the media folder (a symlink).
   */
  async locate(relative: string): Promise<string | null> {
    const segments = parseRelativeMediaPath(relative);
    if (!segments) return null;
    try {
      const [root, file] = await Promise.all([realpath(this.root), realpath(join(this.root, ...segments))]);
      if (!file.startsWith(root + sep)) return null;
      return (await stat(file)).isFile() ? file : null;
    } catch {
      return null;
    }
  }

  async sweepIncoming(now: number = Date.now()): Promise<void> {
    await sweepIncomingFolder(join(this.root, INCOMING), now);
  }

  /** The file goes to `.set-aside/<path>` in the media folder; the replacement is renamed into place whole. */
  async setAside(relative: string, replacement: Buffer | null): Promise<string> {
    const file = await this.locate(relative);
    if (!file) throw new Error(`media/${relative} is not a stored file`);
    const kept = await setAsideLocation(this.root, relative);
    await copyFile(file, kept, constants.COPYFILE_EXCL);
    if (replacement) {
      const temporary = join(this.root, INCOMING, `${randomUUID()}.part`);
      await mkdir(dirname(temporary), { recursive: true });
      await writeFile(temporary, replacement, { flag: 'wx' });
      await rename(temporary, file);
    } else {
      await unlink(file);
    }
    return relativePath(dirname(this.root), kept).split(sep).join('/');
  }
}

/** Removes temporary files older than an hour (a crash left them) from `dir`; never fails. */
export async function sweepIncomingFolder(dir: string, now: number = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = join(dir, name);
    try {
      if (now - (await stat(file)).mtimeMs > STALE_INCOMING_MS) await unlink(file);
    } catch {
      // Another process may have removed or renamed it meanwhile.
    }
  }
}

/**
 * Consumes the file stream: keeps the first bytes until the format is known, then writes to a
 * temporary file, or discards everything once the upload is refused. It always reads to the end,
 * because the multipart parser only finishes the request after each file stream has ended.
 */
class UploadSink extends Writable implements ReceivedFile {
  /** null when refused, undefined until enough bytes arrived to decide. */
  kind: ImageKind | null | undefined = undefined;
  size = 0;
  refusal: AppError | null = null;
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;
  /** Chunks received before the format was decided (they are also in the head). */
  private undecided: Buffer[] = [];
  private handle: FileHandle | null = null;
  private tempFile: string | null = null;
  /** The file operation in flight (a write, or opening the temporary file), settled or not. */
  private busy: Promise<void> = Promise.resolve();
  /** Set once the upload is given up; memoized so every caller waits for the same cleanup. */
  private discarding: Promise<void> | null = null;

  constructor(
    private readonly incomingDir: string,
    private readonly maxBytes: number,
  ) {
    super();
  }

  /** The first bytes of the file (up to HEAD_BYTES). */
  head(): Buffer {
    return Buffer.concat(this.headChunks, this.headLength);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.track(this.accept(chunk)).then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.track(this.decide()).then(() => callback(), callback);
  }

  /**
   * An aborted upload destroys the sink while a write or the opening of the temporary file may
   * still be in flight (a Writable does not wait for it): cleanup waits for that operation, so a
   * descriptor opened a moment after the abort is still closed and its file removed.
   */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // A sink that received the whole file is destroyed too (autoDestroy): that one is kept for commit.
    if (!error && this.writableFinished) {
      callback(null);
      return;
    }
    this.discard().then(
      () => callback(error),
      () => callback(error),
    );
  }

  private track(work: Promise<void>): Promise<void> {
    this.busy = work.then(
      () => undefined,
      () => undefined,
    );
    return work;
  }

  private async accept(chunk: Buffer): Promise<void> {
    this.size += chunk.length;
    if (this.refusal) return;
    if (this.size > this.maxBytes) {
      this.refusal = tooLarge(this.maxBytes);
      return;
    }
    if (this.headLength < HEAD_BYTES) {
      // A copy: the parser may hand out slices of buffers it reuses.
      const kept = Buffer.from(chunk.subarray(0, HEAD_BYTES - this.headLength));
      this.headChunks.push(kept);
      this.headLength += kept.length;
    }
    if (this.kind === undefined) {
      this.undecided.push(chunk);
      if (this.headLength >= SNIFF_BYTES) await this.decide();
      return;
    }
    await this.writeAll(chunk);
  }

  /** Settles the format from the head: opens the temporary file and writes what was held back, or refuses. */
  private async decide(): Promise<void> {
    if (this.kind !== undefined || this.refusal || this.discarding) return;
    if (this.size === 0) {
      this.refusal = new AppError('bad_request', 'The file is empty; choose an image to upload');
      return;
    }
    this.kind = sniffImage(this.head());
    const held = this.undecided;
    this.undecided = [];
    if (this.kind === null) {
      this.refusal = notAnImage();
      return;
    }
    await mkdir(this.incomingDir, { recursive: true });
    this.tempFile = join(this.incomingDir, `${randomUUID()}.part`);
    this.handle = await open(this.tempFile, 'wx', 0o644);
    for (const chunk of held) await this.writeAll(chunk);
  }

  private async writeAll(chunk: Buffer): Promise<void> {
    const handle = this.handle as FileHandle;
    let offset = 0;
    while (offset < chunk.length) {
      const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
      offset += bytesWritten;
    }
  }

  async commit(folder: string, fileName: string, root: string): Promise<void> {
    const handle = this.handle as FileHandle;
    await handle.sync();
    await handle.close();
    this.handle = null;
    const created = await mkdir(folder, { recursive: true });
    await rename(this.tempFile as string, join(folder, fileName));
    this.tempFile = null;
    await syncDirectory(folder);
    // New folders must be recorded in their parents too, up to the media folder's own parent.
    if (created !== undefined) {
      for (const dir of [dirname(folder), root, dirname(root)]) await syncDirectory(dir);
    }
  }

  /**
   * Runs `work` on the temporary file; when it rewrote the file, the sink reopens it (so `commit`
   * syncs the new file) and takes its size.
   */
  async rewrite<Result extends { rewritten: boolean }>(work: (file: string) => Promise<Result>): Promise<Result> {
    const result = await work(this.tempFile as string);
    if (result.rewritten) {
      await this.handle?.close();
      this.handle = await open(this.tempFile as string, 'r+');
      this.size = (await this.handle.stat()).size;
    }
    return result;
  }

  async contents(): Promise<Buffer> {
    const handle = this.handle as FileHandle;
    await handle.close();
    this.handle = null;
    return readFile(this.tempFile as string);
  }

  /** Closes and removes the temporary file, once the file operation in flight has settled. */
  discard(): Promise<void> {
    this.discarding ??= this.busy.then(async () => {
      const { handle, tempFile } = this;
      this.handle = null;
      this.tempFile = null;
      await handle?.close().catch(() => undefined);
      if (tempFile) await unlink(tempFile).catch(() => undefined);
    });
    return this.discarding;
  }
}

function notAnImage(): AppError {
  return new AppError(
    'unsupported_media_type',
    'Only PNG, JPEG, GIF, WebP, AVIF and SVG images can be uploaded; the file content is none of them',
  );
}

/** fsync on a folder persists its entries; Windows cannot open folders, and NTFS journals renames anyway. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(dir, 'r');
  } catch (error) {
    if (process.platform === 'win32') return;
    throw error;
  }
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The refusal of a file over the upload limit, with the limit as data for clients. */
export function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large', `The file is larger than the upload limit of ${maxBytes} bytes`, undefined, {
    code: 'too_large',
    limit: maxBytes,
  });
}
