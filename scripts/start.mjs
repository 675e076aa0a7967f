#!/usr/bin/env node
// `npm start`: builds what is stale, then opens the desktop app, or, where Electron cannot run,
// serves the editor headless and says why in one line (electron/launcher/start-launcher.ts).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

try {
  const launcher = await import(pathToFileURL(join(root, 'dist', 'electron', 'launcher', 'start-launcher.js')).href);
  await launcher.runStart(root, process.argv.slice(2));
} catch (error) {
  console.error(`quire: could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
