import { readSync } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isRunning } from '../process/running-process.js';
import type { LazyTail, SnapshotWriter } from './search-snapshot-codec.js';

/**
 * The files of saved in-memory search indexes, for both engines (sqlite-search-snapshot.ts,
 * postgres-search-snapshot.ts): one file per table in a folder per database, read ahead while the
 * database opens, and written whole or not at all.
 */

/** Told why a saved index was not read back (its table, the reason): the first search then waits for a build. */
export type SnapshotUnused = (table: string, reason: string) => void;

/** The reason given when a saved index's file cannot be read as one (SnapshotUnused). */
export const DAMAGED_SNAPSHOT = 'its file is damaged or of another version';

/** The file of one table's saved index in `folder` (table names are any text: hex keeps them safe). */
export function snapshotPath(folder: string, table: string): string {
  return join(folder, `${Buffer.from(table, 'utf8').toString('hex')}.bin`);
}

/**
 * Rows from which a table's search index is saved: below this its build takes about as long as
 * reading it back (a few hundred milliseconds).
 */
export const SNAPSHOT_MIN_ROWS = 20_000;

/** Parallel reads of a snapshot file (libuv's threads copy from the page cache side by side). */
const READS = 4;

/**
 * A saved index's file in a fresh ArrayBuffer the size of the file (its arrays are read as views of
 * it), all but its parts written `later` read (see search-snapshot-codec.ts): those stay unread,
 * taking no memory, until `tail` reads them from the file as it was opened, whatever has become of
 * its name since.
 */
export interface SavedBytes {
  buffer: ArrayBuffer;
  tail: LazyTail | null;
}

/**
 * The file at `path` as `SavedBytes`, or null. Read in READS parts at once, which libuv's threads
 * copy from the page cache side by side.
 */
export async function readWhole(path: string): Promise<SavedBytes | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    return null;
  }
  let kept = false;
  try {
    const { size } = await handle.stat();
    // Not zero-filled first (the fill would cost as much again): every byte read is read into it,
    // and the pages of those not read are never touched, so they take no memory.
    const bytes = Buffer.allocUnsafeSlow(size);
    const buffer = bytes.buffer as ArrayBuffer;
    const head = size >= 8 ? (await handle.read(bytes, 0, 8, 0)).bytesRead : 0;
    const stated = head === 8 ? bytes.readDoubleLE(0) : size;
    const eager = Number.isInteger(stated) && stated >= 8 && stated <= size ? stated : size;
    const part = Math.ceil(eager / READS / 65536) * 65536;
    const ends = await Promise.all(
      Array.from({ length: READS }, async (_, k) => {
        const end = Math.min(eager, (k + 1) * part);
        let at = k * part;
        while (at < end) {
          const { bytesRead } = await handle.read(bytes, at, end - at, at);
          if (bytesRead === 0) break;
          at += bytesRead;
        }
        return at >= end;
      }),
    );
    if (!ends.every(Boolean)) return null;
    if (eager === size) return { buffer, tail: null };
    kept = true;
    return { buffer, tail: new FileTail({ handle, bytes, from: eager, to: size }) };
  } catch {
    return null;
  } finally {
    if (!kept) await handle.close();
  }
}

/** Closes the file of a tail no longer referenced before it was read. */
const unread = new FinalizationRegistry<FileHandle>((handle) => {
  handle.close().catch(() => {});
});

/**
 * The unread end of a saved index's file, read on demand through the handle the rest was read
 * with (on SQLite the file's name is removed once it is loaded; the handle still reads it). Read
 * synchronously, once: a search that needs it waits for it, as it would for any other part of the
 * index.
 */
class FileTail implements LazyTail {
  private failure: unknown = null;
  private handle: FileHandle | null;
  private readonly bytes: Buffer;
  private readonly from: number;
  private readonly to: number;

  /** Reads `bytes` from offset `from` up to `to` of the file open as `handle`. */
  constructor(options: { handle: FileHandle; bytes: Buffer; from: number; to: number }) {
    this.handle = options.handle;
    this.bytes = options.bytes;
    this.from = options.from;
    this.to = options.to;
    unread.register(this, options.handle, this);
  }

  fill(): void {
    const handle = this.handle;
    if (handle === null) {
      if (this.failure !== null) throw this.failure;
      return;
    }
    this.handle = null;
    unread.unregister(this);
    try {
      let at = this.from;
      while (at < this.to) {
        const read = readSync(handle.fd, this.bytes, at, this.to - at, at);
        if (read === 0) throw new Error('the saved search index file ends early');
        at += read;
      }
    } catch (error) {
      this.failure = error;
      throw error;
    } finally {
      handle.close().catch(() => {});
    }
  }
}

/** How long a file read ahead waits for its load (which reads it again after that). */
const PREFETCH_KEPT_MS = 60_000;
/** Files read ahead by `readSavedTables`, by path, until `savedFile` takes them. */
const prefetched = new Map<string, Promise<SavedBytes | null>>();

/**
 * The tables with a saved index in `folder` (none when there is no folder), their files read from
 * now on, so that a database being opened has them in memory by the time it is ready to answer:
 * then each table's load takes the file read here (`savedFile`), else reads it itself.
 */
export async function readSavedTables(folder: string): Promise<string[]> {
  // Reads kept from an earlier open of this database are dropped first, before any load of this
  // one can take them: a load may have read the file itself while such a read was under way, and
  // the file there now may be newer.
  for (const path of prefetched.keys()) if (dirname(path) === folder) prefetched.delete(path);
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => /^([0-9a-f]{2})+\.bin$/.test(name));
  } catch {
    return [];
  }
  for (const name of names) {
    const path = join(folder, name);
    const read = readWhole(path);
    prefetched.set(path, read);
    // A file no load takes (its table's triggers changed, say) is not held for the process's life.
    setTimeout(() => {
      if (prefetched.get(path) === read) prefetched.delete(path);
    }, PREFETCH_KEPT_MS).unref();
  }
  return names.map((name) => Buffer.from(name.slice(0, -4), 'hex').toString('utf8'));
}

/** The saved file at `path`: the read `readSavedTables` started, else read now; null when absent. */
export function savedFile(path: string): Promise<SavedBytes | null> {
  const early = prefetched.get(path);
  prefetched.delete(path);
  return early ?? readWhole(path);
}

/**
 * Writes `out`'s snapshot to `path` through a partial file renamed into place (a reader never sees
 * half a file; the process id keeps two servers' partial files apart). Written before anything else
 * runs: the writer's large arrays are the index's own (see SnapshotWriter).
 */
export async function writeSnapshotFile(path: string, out: SnapshotWriter): Promise<void> {
  const chunks = out.finish();
  const partial = `${path}.${process.pid}.partial`;
  await mkdir(dirname(path), { recursive: true });
  await removeUnfinished(dirname(path));
  try {
    const handle = await open(partial, 'w');
    try {
      await handle.writev(chunks);
    } finally {
      await handle.close();
    }
    await rename(partial, path);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

/**
 * Deletes the partial files of saves that a kill or a crash cut short (as large as the index):
 * those of processes no longer running, never another running server's save in progress.
 */
async function removeUnfinished(folder: string): Promise<void> {
  for (const name of await readdir(folder)) {
    const unfinished = /\.(\d+)\.partial$/.exec(name);
    if (!unfinished || isRunning(Number(unfinished[1]))) continue;
    await rm(join(folder, name), { force: true });
  }
}
