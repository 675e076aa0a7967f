/**
 * The server process's first module when the build made the bundle (serverEntryScript): it runs
 * `dist/server/bundle/server.cjs` with V8's code cache (code-cache.ts) and, on a start that had to
 * compile, saves the cache once the server has been running a while, so the next start reads it.
 * It imports Node's modules and code-cache.ts only: anything more would load before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { CODE_CACHE_AFTER_MS, runWithCodeCache } from './code-cache.js';

const { save } = runWithCodeCache(fileURLToPath(new URL('../bundle/server.cjs', import.meta.url)));
if (save) setTimeout(() => void save(), CODE_CACHE_AFTER_MS).unref();
