import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { datedFiles } from '../test-support/dated-files.js';
import { serverEntryScript } from './server-entry.js';

const server = resolve(new URL('..', import.meta.url).pathname);

describe('the script the server process runs', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  /**
   * A built server folder: process/server-entry.js, process/server-bundle-main.js, cli-commands.js
   * and maybe the bundle, with mtimes.
   */
  function built(files: Record<string, number>): string {
    const always = { 'process/server-entry.js': 1, 'process/server-bundle-main.js': 1 };
    dir = datedFiles('quire-entry-', { ...always, ...files });
    return pathToFileURL(join(dir, 'process', 'server-entry.js')).href;
  }

  it('is the module running the bundle when the build wrote one after the compiled modules', () => {
    const here = built({ 'cli-commands.js': 100, 'bundle/server.cjs': 101 });
    expect(serverEntryScript('/given/cli.js', here)).toBe(join(dir as string, 'process', 'server-bundle-main.js'));
  });

  it('is the given script without a bundle (the sources under tsx) or with one older than tsc output', () => {
    expect(serverEntryScript('/given/cli.js', built({ 'cli-commands.js': 100 }))).toBe('/given/cli.js');
    rmSync(dir as string, { recursive: true, force: true });
    const stale = built({ 'cli-commands.js': 200, 'bundle/server.cjs': 100 });
    expect(serverEntryScript('/given/cli.js', stale)).toBe('/given/cli.js');
  });
});

/** Every module a source file reaches through static imports (`import type` excluded), from `entry`. */
function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [resolve(server, entry)];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!file.startsWith('/')) continue;
    const source = readFileSync(file, 'utf8');
    for (const [, specifier] of source.matchAll(/^(?:import|export)\s(?!type\s)[^;]*?\sfrom\s+'([^']+)';/gms)) {
      queue.push(specifier.startsWith('.') ? resolve(dirname(file), specifier.replace(/\.js$/, '.ts')) : specifier);
    }
  }
  return seen;
}

describe('node-postgres', () => {
  it('is not loaded by a SQLite server: only PostgreSQL modules imported on demand reach it', () => {
    // Loading `pg` is a noticeable part of a start; database.ts imports the PostgreSQL side lazily.
    const reached = staticClosure('cli-commands.ts');
    expect(reached.size).toBeGreaterThan(100);
    expect([...reached].filter((module) => module === 'pg' || module.startsWith('pg/'))).toEqual([]);
    expect(reached.has(resolve(server, 'db/postgres/postgres-errors.ts'))).toBe(true);
    expect(reached.has(resolve(server, 'db/postgres/postgres-connection.ts'))).toBe(false);
  });
});

const built = resolve(server, '..', 'dist', 'server');
const bundleBuilt =
  existsSync(join(built, 'bundle', 'server.cjs')) &&
  statSync(join(built, 'bundle', 'server.cjs')).mtimeMs >= statSync(join(built, 'cli-commands.js')).mtimeMs;

// The built copy: needs `node scripts/build.mjs` (npm test's e2e and CLI suites build it too).
describe.skipIf(!bundleBuilt)('quire serve from the build', () => {
  let child: ChildProcess | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child?.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** `quire serve` from dist/ on a new database: its API's address. */
  async function serveBuilt(): Promise<string> {
    dir = mkdtempSync(join(tmpdir(), 'quire-bundle-'));
    child = spawn(
      process.execPath,
      [join(built, 'cli.js'), 'serve', '--db', join(dir, 'content.sqlite'), '--port', '0', '--no-backups'],
      { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, QUIRE_SUPERVISED: '' } },
    );
    let out = '';
    return await new Promise<string>((found, failed) => {
      child?.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const match = /listening on (http:\/\/\S+\/api)/.exec(out);
        if (match) found(match[1]);
      });
      child?.once('exit', (code) => failed(new Error(`quire serve exited with ${code}: ${out}`)));
    });
  }

  it('runs the bundled server process, which answers the API', async () => {
    const url = await serveBuilt();
    const response = await fetch(`${url}/cms-content`);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    const body = (await response.json()) as { count: number; content_types: unknown[] };
    expect(body.content_types).toHaveLength(body.count);
    if (process.platform === 'linux') {
      // The supervisor's one child runs the bundle, not the compiled modules.
      const pid = child?.pid;
      const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/);
      expect(kids).toHaveLength(1);
      const command = readFileSync(`/proc/${kids[0]}/cmdline`, 'utf8').split('\0');
      expect(command).toContain(join(built, 'process', 'server-bundle-main.js'));
    }
  }, 30_000);

  it('cleans an uploaded SVG in the cleaning worker and makes its variants in the image process, both started from beside the bundle', async () => {
    const url = await serveBuilt();
    const form = new FormData();
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><rect width="4" height="3"/></svg>';
    form.append('file', new Blob([svg], { type: 'image/svg+xml' }), 'drawing.svg');
    const uploaded = await fetch(`${url}/uploads`, { method: 'POST', body: form });
    const body = (await uploaded.json()) as { path: string; width: number; height: number };
    expect(uploaded.status, JSON.stringify(body)).toBe(201);
    const stored = await (await fetch(new URL(body.path, url))).text();
    expect(stored).toBe(
      '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="3"/></svg>\n',
    );
    // Its variants are made in the image process the bundle starts from the file beside it.
    const variant = await fetch(new URL(`${body.path}?w=2&format=png`, url));
    expect(variant.status).toBe(200);
    expect(variant.headers.get('content-type')).toBe('image/png');
    // A PNG's width is the big-endian word at byte 16 (its IHDR chunk).
    expect(Buffer.from(await variant.arrayBuffer()).readUInt32BE(16)).toBe(2);
    if (process.platform === 'linux') {
      const server = readFileSync(`/proc/${child?.pid}/task/${child?.pid}/children`, 'utf8').trim();
      const imageProcess = readFileSync(`/proc/${server}/task/${server}/children`, 'utf8').trim().split(/\s+/);
      const commands = imageProcess.map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'));
      expect(commands.some((command) => command.includes(join(built, 'bundle', 'image-process-entry.cjs')))).toBe(true);
    }
    const refused = new FormData();
    refused.append(
      'file',
      new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>'], { type: 'image/svg+xml' }),
      'broken.svg',
    );
    const answer = await fetch(`${url}/uploads`, { method: 'POST', body: refused });
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(/not well-formed/);
  }, 30_000);
});
