/**
 * The server process's first module when the build made the bundle (serverEntryScript): it runs
 * `dist/server/bundle/server.cjs` with V8's code cache (code-cache.ts) and, on a start that had to
 * compile, saves the cache once the server has been running a while, so the next start reads it.
 * It imports Node's modules and code-cache.ts only: anything more would load before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { runWithCodeCache } from './code-cache.js';

/**
 * How long after the start the cache is written: by then the server listens and has usually
 * answered its first requests, whose functions the cache then holds too. A process that stops
 * sooner leaves no cache, and the next one compiles.
 */
export const CODE_CACHE_AFTER_MS = 10_000;

const { save } = runWithCodeCache(fileURLToPath(new URL('../bundle/server.cjs', import.meta.url)));
if (save) setTimeout(() => void save(), CODE_CACHE_AFTER_MS).unref();
