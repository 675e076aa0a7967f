import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { codeCachePath, runWithCodeCache } from './code-cache.js';

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A CommonJS script in a new folder; each test's scripts differ, so V8's in-process cache of compiled sources misses. */
function script(source: string): string {
  dir ??= mkdtempSync(join(tmpdir(), 'quire-code-cache-'));
  const file = join(dir, 'bundle.cjs');
  writeFileSync(file, source);
  return file;
}

const caches = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.code-cache'));

describe('running a CommonJS script with V8 code cache', () => {
  it('runs it as Node runs a module: its own require, module, exports, __filename and __dirname', () => {
    const file = script(
      `#!/usr/bin/env node\n'use strict';\nconst { join } = require('node:path');\nmodule.exports = { file: __filename, dir: __dirname, joined: join('a', 'b'), self: exports === module.exports, id: ${Date.now()} };\n`,
    );
    const { exports, use } = runWithCodeCache(file);
    expect(use).toBe('none');
    expect(exports).toMatchObject({ file, dir, joined: join('a', 'b'), self: true });
  });

  it('saves what V8 compiled beside the script, named by its source, and finds it at the next run', async () => {
    const source = `module.exports = function twice(n) { return n * 2; };\n// ${Date.now()}\n`;
    const file = script(source);
    const first = runWithCodeCache(file);
    expect((first.exports as (n: number) => number)(21)).toBe(42);
    expect(await first.save?.()).toBe(true);
    expect(caches(dir as string)).toEqual([basename(codeCachePath(file, source))]);
    const second = runWithCodeCache(file);
    expect(second.use).toBe('accepted');
    expect(second.save).toBeNull();
    expect((second.exports as (n: number) => number)(4)).toBe(8);
  });

  it('names the cache by the whole source, so a script of the same length never gets another script’s cache', async () => {
    const file = script(`module.exports = 'A${Date.now()}';\n`);
    const a = runWithCodeCache(file);
    await a.save?.();
    const [cacheOfA] = caches(dir as string);
    const other = (a.exports as string).replace('A', 'B');
    writeFileSync(file, `module.exports = '${other}';\n`);
    expect(statSync(file).size).toBe(`module.exports = '${a.exports as string}';\n`.length);
    const b = runWithCodeCache(file);
    expect(b.use).toBe('none');
    expect(b.exports).toBe(other);
    // Saving B's cache deletes A's: the folder keeps one cache per script.
    expect(await b.save?.()).toBe(true);
    expect(caches(dir as string)).toHaveLength(1);
    expect(caches(dir as string)[0]).not.toBe(cacheOfA);
  });

  it('keeps the cache in the folder it is given, made when the cache is saved, and finds it there', async () => {
    const source = `module.exports = function thrice(n) { return n * 3; };\n// ${Date.now()}\n`;
    const file = script(source);
    const folder = join(dir as string, 'user-data', 'code-cache');
    const first = runWithCodeCache(file, folder);
    expect(first.use).toBe('none');
    expect(await first.save?.()).toBe(true);
    expect(caches(folder)).toEqual([basename(codeCachePath(file, source))]);
    expect(codeCachePath(file, source, folder)).toBe(join(folder, basename(codeCachePath(file, source))));
    // Nothing beside the script (an installed app's own folder is read-only).
    expect(caches(dir as string)).toEqual([]);
    const second = runWithCodeCache(file, folder);
    expect(second.use).toBe('accepted');
    expect((second.exports as (n: number) => number)(5)).toBe(15);
  });

  it('starts without a cache when it cannot write one, and leaves no temporary file behind', async () => {
    const source = `module.exports = ${Date.now()};\n`;
    const file = script(source);
    // A folder where the cache file would go: the rename fails (as in a read-only install).
    mkdirSync(codeCachePath(file, source));
    const run = runWithCodeCache(file);
    expect(run.use).toBe('none');
    expect(await run.save?.()).toBe(false);
    expect(readdirSync(dir as string).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});

const built = resolve(new URL('../../dist/server/process/code-cache.js', import.meta.url).pathname);

// Across processes, as servers start: needs `node scripts/build.mjs` (npm test builds it first).
describe.skipIf(!existsSync(built))('the code cache across processes', () => {
  /** Runs `file` in a new Node process through the built module: how it used the cache, and its exports. */
  const runInNode = (file: string, save: boolean): { use: string; exports: unknown } =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import { runWithCodeCache } from ${JSON.stringify(built)};
           const run = runWithCodeCache(${JSON.stringify(file)});
           if (${save}) await run.save?.();
           process.stdout.write(JSON.stringify({ use: run.use, exports: run.exports }));`,
        ],
        { encoding: 'utf8' },
      ),
    );

  it('is taken by the next process, and refused to a script of the same length with other code', () => {
    const file = script(`module.exports = [1, 2, 3].map(function (n) { return n + 1; });\n`);
    expect(runInNode(file, true)).toEqual({ use: 'none', exports: [2, 3, 4] });
    expect(runInNode(file, false)).toEqual({ use: 'accepted', exports: [2, 3, 4] });
    // Same length, other code: without the source's hash in the cache's name, V8 (which checks only
    // the length) would run the first script's code.
    writeFileSync(file, `module.exports = [1, 2, 3].map(function (n) { return n * 2; });\n`);
    expect(runInNode(file, false)).toEqual({ use: 'none', exports: [2, 4, 6] });
  });
});
