// Builds what the server and the desktop shell run: the TypeScript of server/ and electron/ into
// dist/ (tsc), and the editor into dist/renderer (vite). With --if-stale it does nothing when every
// source is older than the last build, so `npm start` and `npm run serve` stay fast.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleReport } from './bundle-report.mjs';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', '.build-stamp');
const SOURCES = ['common', 'server', 'electron', 'renderer', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let latest = info.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`quire: build step failed: ${command} ${args.join(' ')}`);
    process.exit(result.status ?? 1);
  }
}

const ifStale = process.argv.includes('--if-stale');
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesChanged = Math.max(...SOURCES.map((source) => newest(join(root, source))));
if (ifStale && built > sourcesChanged) process.exit(0);

const bin = (name) => join(root, 'node_modules', '.bin', name);
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
if (existsSync(join(root, 'renderer', 'vite.config.ts'))) {
  run(bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
  console.log(bundleReport(join(root, 'dist', 'renderer')));
}
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(stamp, new Date().toISOString());
