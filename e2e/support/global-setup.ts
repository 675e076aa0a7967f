import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Makes sure the built editor the server serves is there and current before the browser tests run
 * (`npm test` builds first, so this is usually a no-op; `npx vitest run --project e2e` is not).
 */
export default function buildEditor(): void {
  const missing = !existsSync(join(root, 'dist', 'renderer', 'index.html'));
  const args = [join(root, 'scripts', 'build.mjs'), ...(missing ? [] : ['--if-stale'])];
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`Building the editor failed (node ${args.join(' ')})`);
}
