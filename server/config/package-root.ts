import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding Quire's package.json, found by walking up from this file, so paths work the
 * same from the TypeScript sources (tests), the compiled `dist/` and a packaged app.
 */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

/** Where `vite build` puts the editor. */
export function builtEditorDir(root: string = packageRoot()): string {
  return join(root, 'dist', 'renderer');
}
