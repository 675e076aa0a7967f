/**
 * The desktop server child's first module when the build made its bundle (serverChildEntry): runs
 * `dist/electron/bundle/server-child.cjs` (server-child-entry.ts and all it imports) with V8's code
 * cache, kept in the folder CODE_CACHE_FOLDER_ENV names, and on a start that had to compile saves
 * the cache once the server has been running a while. It imports Node's modules, code-cache.ts and
 * the entry choice only: anything more would load before the bundle.
 */
import { fileURLToPath } from 'node:url';
import { CODE_CACHE_AFTER_MS, runWithCodeCache } from '../../server/process/code-cache.js';
import { CODE_CACHE_FOLDER_ENV } from './server-child-entry-choice.js';

const bundle = fileURLToPath(new URL('../bundle/server-child.cjs', import.meta.url));
const { save } = runWithCodeCache(bundle, process.env[CODE_CACHE_FOLDER_ENV] || undefined);
if (save) setTimeout(() => void save(), CODE_CACHE_AFTER_MS).unref();
