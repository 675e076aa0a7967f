import { join } from 'node:path';

/**
 * better-sqlite3 is a native addon, built for one runtime's ABI. From a checkout, `npm test` and
 * `npm run serve` run on Node with the build in node_modules/better-sqlite3; the desktop app runs
 * the server on Electron's Node with a second build, made by `npm run rebuild:electron` (run by
 * `npm start` and `npm run dist` when needed) into native/electron/ and loaded through
 * better-sqlite3's `nativeBinding` option. A packaged app carries that file in its resources
 * (electron-builder.yml `extraResources`). node_modules is never rebuilt in place, as
 * electron-builder's own rebuild would do: that would break the Node build.
 */

/** Where a packaged app keeps the Electron addon, relative to its resources folder. */
export const PACKAGED_ADDON_PATH = 'native/better_sqlite3.node';

/** The versions an Electron addon build is for; a build for other versions must be redone. */
export interface AddonBuildInfo {
  electron: string;
  betterSqlite3: string;
  platform: string;
  arch: string;
}

/** Where the Electron build of better-sqlite3 lives in a checkout. */
export interface ElectronAddonPaths {
  dir: string;
  addon: string;
  info: string;
}

/** The Electron addon's folder, file and build-info file under a checkout's root. */
export function electronAddonPaths(root: string): ElectronAddonPaths {
  const dir = join(root, 'native', 'electron');
  return { dir, addon: join(dir, 'better_sqlite3.node'), info: join(dir, 'build-info.json') };
}

/** Whether the Electron addon can be used as it is. */
export type AddonStatus = 'ready' | 'missing' | 'stale';

/**
 * Compares the recorded build with what the checkout has now: an Electron or better-sqlite3
 * upgrade (or a checkout moved to another machine) makes the addon stale.
 */
export function addonStatus(recorded: unknown, addonExists: boolean, wanted: AddonBuildInfo): AddonStatus {
  if (!addonExists || typeof recorded !== 'object' || recorded === null) return 'missing';
  const info = recorded as Partial<AddonBuildInfo>;
  const same = (Object.keys(wanted) as (keyof AddonBuildInfo)[]).every((key) => info[key] === wanted[key]);
  return same ? 'ready' : 'stale';
}

/**
 * The `nativeBinding` the server child gets: the checkout's Electron build, or the copy in a
 * packaged app's resources folder.
 */
export function nativeBindingFor(isPackaged: boolean, appRoot: string, resourcesPath: string): string {
  return isPackaged ? join(resourcesPath, ...PACKAGED_ADDON_PATH.split('/')) : electronAddonPaths(appRoot).addon;
}
