import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotWriter } from './search-snapshot-codec.js';
import { readWhole, snapshotPath, writeSnapshotFile } from './search-snapshot-files.js';

describe('saved search index files', () => {
  const folders: string[] = [];
  afterEach(() => {
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  it("are written whole, clearing ended processes' partial files but not a running one's", async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-snapshot-files-'));
    folders.push(folder);
    const path = snapshotPath(folder, 'news');
    // A process that has ended (its id is free again), and one still running (this test's parent).
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    writeFileSync(`${path}.${ended}.partial`, 'cut short');
    writeFileSync(`${snapshotPath(folder, 'other')}.${process.ppid}.partial`, 'in progress');
    const out = new SnapshotWriter();
    out.string('saved');
    out.u32(42);
    await writeSnapshotFile(path, out);
    expect(readdirSync(folder).sort()).toEqual(
      [`${path}`, `${snapshotPath(folder, 'other')}.${process.ppid}.partial`]
        .map((file) => file.slice(folder.length + 1))
        .sort(),
    );
    expect(existsSync(`${path}.${ended}.partial`)).toBe(false);
    const buffer = await readWhole(path);
    expect(buffer?.byteLength).toBe(out.length);
  });
});
