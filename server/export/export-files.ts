import { lstat, mkdir, open, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { READ_NO_FOLLOW } from '../media/media-files.js';

/** What an export did to its folder. */
export interface WriteCounts {
  written: number;
  unchanged: number;
  removed: number;
}

/** A problem with what was asked (an unknown type) or with the export folder: one line for the user. */
export class ExportError extends Error {}

/**
 * Writes files under one folder, each only when its content differs (so a build watching the
 * folder, or rsync, sees only real changes), through a temporary name and a rename so a reader
 * never sees half a file; remembers every path it was given. The folder's own path is trusted as
 * named (it may be a link the user made); nothing inside it is followed: a symlink where the
 * export puts a folder or a file is refused, and only regular files the previous export listed,
 * inside the folder's real path, are removed, so whoever can put a link in the folder cannot make
 * an export write or delete files elsewhere.
 */
export class ExportFolder {
  readonly counts: WriteCounts = { written: 0, unchanged: 0, removed: 0 };
  /** Every file of this export, relative to the folder, with `/` separators. */
  readonly files = new Set<string>();
  /** The folder's real path, once made. */
  private real: string | null = null;
  /** Folders inside it (relative, `/`-separated) found or made as real folders. */
  private readonly folders = new Set<string>();

  constructor(readonly root: string) {}

  /** Writes `content` at `path` (relative, `/`-separated) unless the file already holds exactly it. */
  async write(path: string, content: string | Buffer): Promise<void> {
    this.files.add(path);
    const segments = path.split('/');
    const target = join(await this.folder(segments.slice(0, -1)), segments[segments.length - 1]);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const current = await this.readCurrent(target, path);
    if (current?.equals(bytes)) {
      this.counts.unchanged++;
      return;
    }
    const temporary = `${target}.${process.pid}.tmp`;
    // A leftover of an interrupted run, or a link: rm removes the entry, never what a link names.
    await rm(temporary, { force: true });
    await writeFile(temporary, bytes, { flag: 'wx' });
    await rename(temporary, target);
    this.counts.written++;
  }

  /** Counts `path` as a file of this export, as the last one left it (so it is not removed). */
  keep(path: string): void {
    this.files.add(path);
    this.counts.unchanged++;
  }

  /** Writes a value as indented JSON with a final newline. */
  writeJson(path: string, value: unknown): Promise<void> {
    return this.write(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  /**
   * Removes the files a previous export listed that this one did not write (rows deleted since,
   * media no longer used). Only a listed regular file whose folder's real path is inside this
   * folder's is removed: never a link, nor anything reached through one.
   */
  async removeStale(previous: readonly string[]): Promise<void> {
    const base = await this.base();
    for (const path of previous) {
      if (this.files.has(path)) continue;
      const segments = path.split('/');
      if (segments.some((segment) => ['', '.', '..'].includes(segment) || /[\\\0]/.test(segment))) continue;
      const target = join(base, ...segments);
      try {
        if ((await realpath(dirname(target))) !== dirname(target)) continue;
        if (!(await lstat(target)).isFile()) continue;
        await rm(target);
        this.counts.removed++;
      } catch {
        // Already gone: nothing to remove.
      }
    }
  }

  /** The folder's real path, made when missing. */
  private async base(): Promise<string> {
    if (this.real === null) {
      await mkdir(this.root, { recursive: true });
      this.real = await realpath(this.root);
    }
    return this.real;
  }

  /** The folder at `segments` inside the export, each level a real folder (made when missing). */
  private async folder(segments: readonly string[]): Promise<string> {
    let location = await this.base();
    for (let depth = 0; depth < segments.length; depth++) {
      location = join(location, segments[depth]);
      const relative = segments.slice(0, depth + 1).join('/');
      if (this.folders.has(relative)) continue;
      let info = await lstat(location).catch(() => null);
      if (!info) {
        await mkdir(location).catch((error) => {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        });
        info = await lstat(location);
      }
      if (!info.isDirectory()) throw this.refusal(relative, info.isSymbolicLink() ? 'a symbolic link' : 'not a folder');
      this.folders.add(relative);
    }
    return location;
  }

  /** What a file of the export holds now (null when there is none), read without following a link. */
  private async readCurrent(target: string, path: string): Promise<Buffer | null> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(target, READ_NO_FOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return null;
      if (code === 'ELOOP') throw this.refusal(path, 'a symbolic link');
      throw error;
    }
    try {
      if (!(await handle.stat()).isFile()) throw this.refusal(path, 'not a file');
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  }

  private refusal(path: string, what: string): ExportError {
    return new ExportError(
      `${join(this.root, ...path.split('/'))} is ${what}, which an export never writes through; remove it and export again`,
    );
  }
}
