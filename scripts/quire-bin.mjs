#!/usr/bin/env node
// The `quire` command as npm installs it (package.json "bin": `npx quire` in the checkout, `npm link`,
// a global install): runs the built command, dist/server/cli.js. A checkout that was never built
// (a fresh clone) is built first, once, so the first `npx quire ...` works as the README says; the
// build's own output goes to stderr, keeping stdout for the command's answer (`quire types > x.d.ts`).
// Node's modules only: this file runs before every command, `quire serve` included.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Node runs a linked bin from its real path, so this is the checkout's (or the package's) root.
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'dist', 'server', 'cli.js');

/** Builds dist/ when it is missing; false (said in one line) when it cannot. */
function buildIfMissing() {
  if (existsSync(cli)) return true;
  if (!existsSync(join(root, 'node_modules', '.bin', 'tsc'))) {
    console.error(`quire: Quire is not built yet: run npm install, then npm run build, in ${root}`);
    return false;
  }
  console.error('quire: building Quire first (once; npm run build does the same)...');
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], {
    cwd: root,
    stdio: ['ignore', 2, 2],
  });
  if (build.status === 0 && existsSync(cli)) return true;
  console.error(`quire: the build failed; run npm run build in ${root} to see why`);
  return false;
}

if (buildIfMissing()) {
  const { runCommandLine } = await import(pathToFileURL(cli).href);
  runCommandLine(process.argv.slice(2));
} else {
  process.exitCode = 1;
}
