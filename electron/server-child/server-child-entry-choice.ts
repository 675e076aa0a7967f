import { fileURLToPath } from 'node:url';
import { bundledEntryOr } from '../../server/process/server-entry.js';

/**
 * The environment variable naming the folder where the server child keeps V8's code cache of its
 * bundle: the main process gives the app's user-data folder (an installed app's own files are
 * read-only, often inside an asar archive); without it the cache goes beside the bundle.
 */
export const CODE_CACHE_FOLDER_ENV = 'QUIRE_CODE_CACHE_FOLDER';

/**
 * The script the desktop app's server child runs: when the build wrote the child's one-file bundle
 * (scripts/build.mjs: dist/electron/bundle/server-child.cjs), the module that runs it with V8's code
 * cache (server-child-bundle-main.ts), else tsc's server-child-entry.js, which loads the server's
 * modules one by one, a slower start (server-entry.ts says why).
 */
export function serverChildEntry(here: string = import.meta.url): string {
  const at = (path: string) => fileURLToPath(new URL(path, here));
  return bundledEntryOr(at('./server-child-entry.js'), {
    bundle: at('../bundle/server-child.cjs'),
    main: at('./server-child-bundle-main.js'),
    compiled: at('./server-child.js'),
  });
}
