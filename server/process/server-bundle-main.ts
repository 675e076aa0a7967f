/**
 * The server process's first module when the build made the bundle (serverEntryScript): it runs
 * `dist/server/bundle/server.cjs` with V8's code cache (code-cache.ts) and, on a start that had to
 * compile, saves the cache once the server has been running a while, so the next start reads it.
 * It imports Node's modules, code-cache.ts and the supervisor's flag only: anything more would load
 * before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { CODE_CACHE_AFTER_MS, runWithCodeCache } from './code-cache.js';
import { isSupervisedServer } from './server-supervisor.js';

const { save } = runWithCodeCache(fileURLToPath(new URL('../bundle/server.cjs', import.meta.url)));
// Only the server writes the cache. The other commands (`quire import`...) run from the bundle too,
// without the server's memory flags, and V8 refuses a cache taken under other flags: a long import
// saving its own would cost the next server start its cache, and the server would then save over it.
if (save && isSupervisedServer()) setTimeout(() => void save(), CODE_CACHE_AFTER_MS).unref();
