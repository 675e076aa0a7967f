#!/usr/bin/env node
// `npm run rebuild:electron`: builds better-sqlite3 for the checkout's Electron into
// native/electron/ (the Node build in node_modules stays as it is). `npm start` builds it by itself
// when it is missing or stale, `npm run dist` runs this with --if-stale (skip when current); run it
// by hand to see why a build fails.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dist = (path) => pathToFileURL(join(root, 'dist', 'electron', path)).href;
const { buildElectronAddon, checkoutAddonStatus } = await import(dist('launcher/electron-addon-build.js'));
const { electronAddonPaths } = await import(dist('main/native-addon.js'));
if (process.argv.includes('--if-stale') && checkoutAddonStatus(root) === 'ready') process.exit(0);
try {
  const info = await buildElectronAddon(root);
  const addon = relative(root, electronAddonPaths(root).addon);
  console.log(
    `Built ${addon} for Electron ${info.electron} (better-sqlite3 ${info.betterSqlite3}, ${info.platform}-${info.arch}).`,
  );
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`quire: could not build the SQLite module for Electron: ${message}`);
  process.exitCode = 1;
}
