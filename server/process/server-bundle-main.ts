/**
 * The server process's first module when the build made the bundle (serverEntryScript): it runs
 * `dist/server/bundle/server.cjs` with V8's code cache (code-cache.ts) and, on a start that had to
 * compile, saves the cache once the server has been running a while, so the next start reads it.
 * It imports Node's modules and code-cache.ts only: anything more would load before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { CODE_CACHE_AFTER_MS, runWithCodeCache } from './code-cache.js';

const { save } = runWithCodeCache(fileURLToPath(new URL('../bundle/server.cjs', import.meta.url)));
// Only the server process writes the cache: its supervisor starts it with `serve` first, where the
// other commands (`quire import`...) come from cli.ts with their own. They run without the
// server's memory flags, and V8 refuses a cache taken under other flags: a long import saving its
// own would cost the next server start its cache, and the server would then save over it. (Read
// from the arguments: importing the supervisor's check would load it and child_process before the
// bundle.)
if (save && process.argv[2] === 'serve') setTimeout(() => void save(), CODE_CACHE_AFTER_MS).unref();
