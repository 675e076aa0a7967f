import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The script the server process runs: when the build wrote the one-file bundle of the server
 * (scripts/build.mjs: dist/server/bundle/server.cjs), the module that runs it with V8's code cache
 * (server-bundle-main.ts, beside this one), else `fallback` (the script this process was started
 * with: the TypeScript sources under tsx, or a build without it).
 *
 * Loading ~480 modules one by one was most of a server's start (issue 13: ~450 ms before the first
 * answer, 262 files kysely's alone); one bundled file loads in a fraction of that and takes less
 * memory. A bundle older than the compiled modules (only `tsc` ran since) is not used: it would
 * run yesterday's code. (`server-bundle-main.js` itself is not looked for: tsc writes it in the same
 * run as this module.)
 */
export function serverEntryScript(fallback: string, here: string = import.meta.url): string {
  const bundle = fileURLToPath(new URL('../bundle/server.cjs', here));
  const main = fileURLToPath(new URL('./server-bundle-main.js', here));
  const compiled = fileURLToPath(new URL('../cli-commands.js', here));
  const bundled = statSync(bundle, { throwIfNoEntry: false });
  const tsc = statSync(compiled, { throwIfNoEntry: false });
  if (!bundled || (tsc && tsc.mtimeMs > bundled.mtimeMs)) return fallback;
  return main;
}
