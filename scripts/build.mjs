// Builds what the server and the desktop shell run: the TypeScript of server/ and electron/ into
// dist/ (tsc), the server processes (`quire serve`'s and the desktop app's) as bundles (esbuild,
// see bundleServers), and the editor into dist/renderer (vite). With --if-stale it does nothing
// when every source is older than the last build, so `npm start` and `npm run serve` stay fast.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

function run(command, args, env = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
    env: { ...process.env, ...env },
  });
  if (result.status !== 0) {
    console.error(`quire: build step failed: ${command} ${args.join(' ')}`);
    process.exit(result.status ?? 1);
  }
}

/**
 * The server process (`quire serve`'s child) as one CommonJS file, dist/server/bundle/server.cjs,
 * which dist/server/process/server-bundle-main.js runs with V8's code cache (code-cache.ts says why
 * CommonJS): one file loads much faster than hundreds of modules one by one. Code imported on
 * demand (PostgreSQL's modules) is in the file but runs only when imported. better-sqlite3 and
 * sharp (native: sharp finds its libvips build by package name) and pg (loaded only for PostgreSQL)
 * stay packages. The desktop app's server child likewise, as
 * dist/electron/bundle/server-child.cjs (run by server-child-bundle-main.js). Beside each, the SVG
 * cleaning worker as svg-clean-worker.cjs and the image process as image-process-entry.cjs (a
 * worker thread and a child process run a file). tsc's dist/ stays as
 * it is for the `quire` entry, the desktop app's main process and the tests that import modules.
 */
async function bundleServers() {
  const { build } = await import('esbuild');
  const bundles = [
    { entry: join('server', 'process', 'server-bundle.ts'), out: join('dist', 'server', 'bundle', 'server.cjs') },
    {
      entry: join('electron', 'server-child', 'server-child-entry.ts'),
      out: join('dist', 'electron', 'bundle', 'server-child.cjs'),
    },
  ];
  // The SVG cleaning worker and the image process, modules a bundled server starts by their path: beside each bundle.
  const workers = bundles.flatMap(({ out }) =>
    ['svg-clean-worker', 'image-process-entry'].map((name) => ({
      entry: join('server', 'media', `${name}.ts`),
      out: join(dirname(out), `${name}.cjs`),
    })),
  );
  for (const { out } of bundles) rmSync(dirname(join(root, out)), { recursive: true, force: true });
  for (const { entry, out } of [...bundles, ...workers]) {
    await build({
      entryPoints: [join(root, entry)],
      outfile: join(root, out),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      external: ['better-sqlite3', 'pg', 'sharp'],
      // The sources are ES modules, strict throughout, and read their own URL (import.meta.url).
      define: { 'import.meta.url': 'quireBundleUrl' },
      banner: { js: "'use strict';\nconst quireBundleUrl = require('node:url').pathToFileURL(__filename).href;" },
      logLevel: 'warning',
    });
  }
}

const ifStale = process.argv.includes('--if-stale');
const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
const sourcesChanged = Math.max(...SOURCES.map((source) => newest(join(root, source))));
if (ifStale && built > sourcesChanged) process.exit(0);

const bin = (name) => join(root, 'node_modules', '.bin', name);
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
// The command's built entry has a #! line and runs as a program of its own (through a link, as
// package managers make them); tsc writes files without the execute bit.
chmodSync(join(root, 'dist', 'server', 'cli.js'), 0o755);
// After tsc: server-entry.ts uses a bundle only when it is not older than tsc's output.
await bundleServers();
if (existsSync(join(root, 'renderer', 'vite.config.ts'))) {
  // A production build even when a test runner (NODE_ENV=test) runs this: vite builds React's
  // development bundle otherwise, much larger (the bundle report's test checks for it).
  run(bin('vite'), ['build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn'], { NODE_ENV: 'production' });
  console.log(bundleReport(join(root, 'dist', 'renderer')));
}
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(stamp, new Date().toISOString());
