import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { constants, Script } from 'node:vm';

/**
 * Running a CommonJS bundle with V8's code cache, so the server process starts sooner: Node
 * compiles a script at every start, and each function again the first time it runs, a large share
 * of the time to the first answer. V8 can save that code and take it back at the next start
 * (`createCachedData`, `cachedData`); Node 20 offers this for scripts only (`module.enableCompileCache`
 * needs Node 22), hence a CommonJS bundle run through `vm.Script`. V8 checks a cache against its
 * version and flags but against the source only by its length, so the cache file is named by a hash
 * of the source, and caches of other sources beside it are deleted when a new one is written.
 */

/**
 * How long after a start the cache is written: by then the server listens and has usually
 * answered its first requests, whose functions the cache then holds too. A process that stops
 * sooner leaves no cache, and the next one compiles.
 */
export const CODE_CACHE_AFTER_MS = 10_000;

/** How a start used the code cache: taken, refused by V8 (another Node or other flags), or none there. */
export type CodeCacheUse = 'accepted' | 'rejected' | 'none';

/** What `runWithCodeCache` did: how it used a cache, and the module's exports. */
export interface CodeCacheRun {
  use: CodeCacheUse;
  exports: unknown;
  /**
   * Writes a cache of what V8 has compiled by now (call it once the process has done its usual
   * start, so the functions that start ran are in it): true once written, false when it could not
   * be (a read-only folder: the next start compiles, nothing worse). Null when the cache read was
   * accepted: it already holds the start's code.
   */
  save: (() => Promise<boolean>) | null;
}

/**
 * Where the code cache of `source`, the script at `file`, is kept: in `folder` (default: beside the
 * script), named after the script and the source's hash.
 */
export function codeCachePath(file: string, source: string, folder = dirname(file)): string {
  const hash = createHash('sha1').update(source).digest('hex').slice(0, 16);
  return join(folder, `${basename(file)}.${hash}.code-cache`);
}

/** The code caches of other sources of the script at `file` (`codeCachePath`'s names) in `keep`'s folder. */
async function otherCaches(file: string, keep: string): Promise<string[]> {
  const prefix = `${basename(file)}.`;
  return (await readdir(dirname(keep)))
    .filter((name) => name.startsWith(prefix) && name.endsWith('.code-cache'))
    .map((name) => join(dirname(keep), name))
    .filter((path) => path !== keep);
}

/**
 * Runs the CommonJS script at `file` as Node runs a module (its own `require`, `module`, `exports`,
 * `__filename`, `__dirname`; dynamic `import()` through Node's loader), compiled with the code cache
 * kept for this source in `cacheFolder` (default: beside the script; the desktop app's is read-only
 * once installed, so it names a folder of its own), created when the cache is saved.
 */
export function runWithCodeCache(file: string, cacheFolder?: string): CodeCacheRun {
  // A `#!` line is valid at a file's start only, not inside the module's wrapper function.
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  const cachePath = codeCachePath(file, source, cacheFolder);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cachePath);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const use: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'accepted';
  const module = new Module(file);
  module.filename = file;
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  const save = async (): Promise<boolean> => {
    const temporary = `${cachePath}.${process.pid}.tmp`;
    try {
      if (cacheFolder !== undefined) await mkdir(cacheFolder, { recursive: true });
      await writeFile(temporary, script.createCachedData());
      await rename(temporary, cachePath);
      await Promise.all((await otherCaches(file, cachePath)).map((path) => rm(path, { force: true })));
      return true;
    } catch {
      await rm(temporary, { force: true }).catch(() => {});
      return false;
    }
  };
  return { use, exports: module.exports, save: use === 'accepted' ? null : save };
}
