import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  findMissingMedia,
  listMediaFiles,
  openMediaFile,
  placeMediaFiles,
  readMediaFile,
  replaceMediaFolder,
  UnsafeMediaFile,
} from './media-files.js';

let dir: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'quire-media-files-'));
  root = join(dir, 'media');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function store(folder: string, content: string, month = '2026/03'): string {
  const path = `${month}/${uuidv7()}.png`;
  mkdirSync(join(folder, month), { recursive: true });
  writeFileSync(join(folder, path), content);
  return path;
}

describe('the stored files of a media folder', () => {
  it('are the generated names only: not .incoming, stray files, made-up names or symlinks', async () => {
    const kept = [store(root, 'a'), store(root, 'bb', '2025/12')];
    mkdirSync(join(root, '.incoming'));
    writeFileSync(join(root, '.incoming', 'x.part'), 'partial');
    writeFileSync(join(root, 'notes.txt'), 'stray');
    writeFileSync(join(root, '2026', '03', 'holiday.png'), 'made up');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    symlinkSync(join(dir, 'secret.txt'), join(root, '2026', '03', `${uuidv7()}.png`));
    const files = await listMediaFiles(root);
    expect(files.map((file) => file.path)).toEqual([...kept].sort());
    expect(files.map((file) => file.size).sort()).toEqual([1, 2]);
    expect(await listMediaFiles(join(dir, 'none'))).toEqual([]);
  });

  it('are placed elsewhere as hard links; a file gone since it was listed is an error, or left out with skipMissing', async () => {
    const present = store(root, 'here');
    const gone = { path: `2026/03/${uuidv7()}.png` };
    await expect(placeMediaFiles(root, join(dir, 'a'), [{ path: present }, gone])).rejects.toThrow(/ENOENT/);
    const placed = await placeMediaFiles(root, join(dir, 'b'), [{ path: present }, gone], { skipMissing: true });
    expect(placed).toEqual([{ path: present }]);
    expect(statSync(join(dir, 'b', present)).ino).toBe(statSync(join(root, present)).ino);
  });

  it('are checked against a list: a missing file or another size is named', async () => {
    const path = store(root, 'four');
    expect(await findMissingMedia(root, [{ path, size: 4, mtimeMs: 0 }])).toBeNull();
    expect(await findMissingMedia(root, [{ path, size: 5, mtimeMs: 0 }])).toBe(
      `media/${path} has 4 bytes instead of 5`,
    );
    const other = `2026/03/${uuidv7()}.png`;
    expect(await findMissingMedia(root, [{ path: other, size: 1, mtimeMs: 0 }])).toBe(`media/${other} is missing`);
  });

  it('can be replaced whole by another set, leaving nothing of the old one', async () => {
    const old = store(root, 'old');
    const backup = join(dir, 'backup');
    const restored = store(backup, 'restored');
    await replaceMediaFolder(root, backup, [{ path: restored, size: 8, mtimeMs: 0 }]);
    expect(readFileSync(join(root, restored), 'utf8')).toBe('restored');
    expect((await listMediaFiles(root)).map((file) => file.path)).toEqual([restored]);
    expect(old).not.toBe(restored);
    expect(readdirSync(dir).sort()).toEqual(['backup', 'media']);
  });

  it('are opened only as regular files reached through real folders, and the descriptor keeps the file checked', async () => {
    const path = store(root, 'stored');
    writeFileSync(join(dir, 'secret.txt'), 'outside');
    const opened = await openMediaFile(root, path, { checkRoot: true });
    // Replaced by a link after the check: what is read is still the file that was checked.
    renameSync(join(root, path), join(dir, 'moved.png'));
    symlinkSync(join(dir, 'secret.txt'), join(root, path));
    expect((await opened.handle.readFile()).toString()).toBe('stored');
    await opened.handle.close();
    await expect(openMediaFile(root, path)).rejects.toThrow(
      new UnsafeMediaFile(`media/${path} is a symbolic link, which Quire never stores`),
    );

    const fifo = `2026/03/${uuidv7()}.png`;
    execFileSync('mkfifo', [join(root, fifo)]);
    await expect(openMediaFile(root, fifo)).rejects.toThrow(`media/${fifo} is not a regular file`);
    const folder = `2026/03/${uuidv7()}.png`;
    mkdirSync(join(root, folder));
    await expect(openMediaFile(root, folder)).rejects.toThrow(`media/${folder} is not a regular file`);

    const elsewhere = join(dir, 'elsewhere');
    const kept = store(elsewhere, 'kept', '2025/01');
    symlinkSync(join(elsewhere, '2025'), join(root, '2025'));
    await expect(openMediaFile(root, kept)).rejects.toThrow('media/2025 is a symbolic link');
    const linkedRoot = join(dir, 'linked');
    symlinkSync(elsewhere, linkedRoot);
    await expect(openMediaFile(linkedRoot, kept, { checkRoot: true })).rejects.toThrow('linked/ is a symbolic link');
    // A media folder its owner made a link (to another disk) is trusted as named.
    expect((await readMediaFile(linkedRoot, kept)).toString()).toBe('kept');
    await expect(openMediaFile(root, `2026/03/${uuidv7()}.png`)).rejects.toThrow(/ENOENT/);
  });
});
