import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A new temporary folder (named from `prefix`) holding empty `files`, each a path inside it dated
 * (mtime) that many seconds after the epoch: a build's output, for checks of which part is newer.
 */
export function datedFiles(prefix: string, files: Record<string, number>): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (const [file, seconds] of Object.entries(files)) {
    const path = join(dir, file);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
    utimesSync(path, seconds, seconds);
  }
  return dir;
}
