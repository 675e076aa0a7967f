import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { VariantCacheIndex } from './variant-cache-index.js';

/**
 * The variant cache folder kept under its size cap (`--image-cache-mb`): the files found there at
 * start (oldest first, by modification time) and those made or served since, pruned least recently
 * used first (VariantCacheIndex). A cache file is `<hash[0..2]>/<hash>-<plan>`, so an original's
 * variants are found by its content hash. Servers sharing a folder each count the files that were
 * there when they started and those they made.
 */
export class VariantCacheFiles {
  private readonly index: VariantCacheIndex;
  private readonly loaded: Promise<void>;

  constructor(
    private readonly dir: string,
    capBytes: number,
  ) {
    this.index = new VariantCacheIndex(capBytes);
    this.loaded = this.load();
  }

  /** Whether `file` is in the cache; a hit counts as its latest use. */
  async has(file: string): Promise<boolean> {
    await this.loaded;
    if (this.index.touch(file)) {
      // Another server sharing the folder may have pruned it.
      if ((await sizeOf(file)) !== null) return true;
      this.index.forget(file);
      return false;
    }
    const bytes = await sizeOf(file);
    if (bytes === null) return false;
    this.index.use(file, bytes);
    return true;
  }

  /** Records a file just written, and deletes the least recently used ones beyond the cap. */
  async added(file: string, bytes: number): Promise<void> {
    await this.loaded;
    this.index.use(file, bytes);
    await Promise.all(this.index.overflow().map((gone) => rm(gone, { force: true })));
  }

  /** Deletes every variant of the original with content hash `hash` (replaced or deleted). */
  async removeOriginal(hash: string): Promise<void> {
    if (!/^[0-9a-f]{64}$/.test(hash)) return;
    await this.loaded;
    const folder = join(this.dir, hash.slice(0, 2));
    this.index.forgetWhere((file) => basename(file).startsWith(hash));
    let names: string[];
    try {
      names = await readdir(folder);
    } catch {
      return;
    }
    await Promise.all(
      names.filter((name) => name.startsWith(hash)).map((name) => rm(join(folder, name), { force: true })),
    );
  }

  /** Bytes the cache holds as far as this server knows. */
  async total(): Promise<number> {
    await this.loaded;
    return this.index.total;
  }

  /** Reads the folder: its variants by modification time, oldest first; partly written files are left out. */
  private async load(): Promise<void> {
    const found: { file: string; bytes: number; at: number }[] = [];
    let folders: string[];
    try {
      folders = await readdir(this.dir);
    } catch {
      return;
    }
    for (const folder of folders) {
      let names: string[];
      try {
        names = await readdir(join(this.dir, folder));
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.endsWith('.part')) continue;
        const file = join(this.dir, folder, name);
        try {
          const info = await stat(file);
          if (info.isFile()) found.push({ file, bytes: info.size, at: info.mtimeMs });
        } catch {}
      }
    }
    found.sort((a, b) => a.at - b.at);
    for (const { file, bytes } of found) this.index.use(file, bytes);
    await Promise.all(this.index.overflow().map((gone) => rm(gone, { force: true })));
  }
}

/** The size of a file, or null when there is none. */
async function sizeOf(file: string): Promise<number | null> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

/** Writes a cache file whole or not at all: a reader never sees half a variant. */
export async function writeAtomically(file: string, bytes: Buffer): Promise<void> {
  const temporary = `${file}.${randomUUID()}.part`;
  await mkdir(join(file, '..'), { recursive: true });
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
