import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SnapshotReader, SnapshotWriter } from './search-snapshot-codec.js';
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
    const saved = await readWhole(path);
    expect(saved?.buffer.byteLength).toBe(out.length);
    expect(saved?.tail).toBe(null);
  });

  it('leave the parts written later unread until wanted, then read them from the file even once it is removed', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'quire-snapshot-files-'));
    folders.push(folder);
    const path = snapshotPath(folder, 'news');
    const out = new SnapshotWriter();
    out.string('index');
    const part = out.later();
    const text = Buffer.alloc(300_000, 'text of rows ');
    part.bytes(text);
    out.u32(7);
    await writeSnapshotFile(path, out);
    const saved = await readWhole(path);
    if (!saved?.tail) throw new Error('the part written later was read at once');
    // As SQLite's loader does: the name goes once the file is loaded.
    rmSync(path);
    const input = new SnapshotReader(saved.buffer, saved.tail);
    expect(input.string()).toBe('index');
    const later = input.later();
    expect(input.u32()).toBe(7);
    expect(input.done).toBe(true);
    expect(later.read().bytes(text.length).equals(text)).toBe(true);
  });
});
