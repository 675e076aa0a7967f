import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The files that decide whether a process runs its bundle (see `bundledEntryOr`). */
export interface BundledEntry {
  /** The one-file bundle the build wrote (esbuild). */
  bundle: string;
  /** The module that runs it with V8's code cache. */
  main: string;
  /** A module tsc writes in the same run as `main`: whether only tsc ran since the bundle was made. */
  compiled: string;
}

/**
 * `entry.main` when the build wrote the bundle after tsc's output, else `fallback`. A bundle older
 * than the compiled modules (only `tsc` ran since) is not used: it would run yesterday's code.
 * (`main` itself is not looked for: tsc writes it in the same run as `compiled`.)
 */
export function bundledEntryOr(fallback: string, entry: BundledEntry): string {
  const bundled = statSync(entry.bundle, { throwIfNoEntry: false });
  const tsc = statSync(entry.compiled, { throwIfNoEntry: false });
  if (!bundled || (tsc && tsc.mtimeMs > bundled.mtimeMs)) return fallback;
  return entry.main;
}

/**
 * The script the server process runs: when the build wrote the one-file bundle of the server
 * (scripts/build.mjs: dist/server/bundle/server.cjs), the module that runs it with V8's code cache
 * (server-bundle-main.ts, beside this one), else `fallback` (the script this process was started
 * with: the TypeScript sources under tsx, or a build without it). One bundled file loads in a
 * fraction of the time hundreds of modules take one by one, and takes less memory.
 */
export function serverEntryScript(fallback: string, here: string = import.meta.url): string {
  const at = (path: string) => fileURLToPath(new URL(path, here));
  return bundledEntryOr(fallback, {
    bundle: at('../bundle/server.cjs'),
    main: at('./server-bundle-main.js'),
    compiled: at('../cli-commands.js'),
  });
}
