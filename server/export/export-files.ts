import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

/** What an export did to its folder. */
export interface WriteCounts {
  written: number;
  unchanged: number;
  removed: number;
}

/**
 * Writes files under one folder, each only when its content differs from what is there (so a
 * build watching the folder, or rsync, sees only real changes), through a temporary name and a
 * rename so a reader never sees half a file; remembers every path it was given.
 */
export class ExportFolder {
  readonly counts: WriteCounts = { written: 0, unchanged: 0, removed: 0 };
  /** Every file of this export, relative to the folder, with `/` separators. */
  readonly files = new Set<string>();

  constructor(readonly root: string) {}

  /** Writes `content` at `path` (relative, `/`-separated) unless the file already holds exactly it. */
  async write(path: string, content: string | Buffer): Promise<void> {
    this.files.add(path);
    const target = join(this.root, ...path.split('/'));
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    const current = await readFile(target).catch(() => null);
    if (current?.equals(bytes)) {
      this.counts.unchanged++;
      return;
    }
    await mkdir(dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, target);
    this.counts.written++;
  }

  /** Writes a value as indented JSON with a final newline. */
  writeJson(path: string, value: unknown): Promise<void> {
    return this.write(path, `${JSON.stringify(value, null, 2)}\n`);
  }

  /**
   * Removes the files a previous export listed that this one did not write (rows deleted since,
   * media no longer used). Only listed files inside the folder are touched, never anything else.
   */
  async removeStale(previous: readonly string[]): Promise<void> {
    for (const path of previous) {
      if (this.files.has(path)) continue;
      const target = join(this.root, ...path.split('/'));
      const inside = relative(this.root, target);
      if (inside === '' || inside.startsWith('..') || inside.split(sep).includes('..')) continue;
      try {
        await rm(target);
        this.counts.removed++;
      } catch {
        // Already gone: nothing to remove.
      }
    }
  }
}
