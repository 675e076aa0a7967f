import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AddonBuildInfo, addonStatus, electronAddonPaths } from '../main/native-addon.js';

function packageVersion(root: string, name: string): string | null {
  try {
    return JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version ?? null;
  } catch {
    return null;
  }
}

/** The versions the checkout has now; null when Electron or better-sqlite3 is not installed. */
export function wantedAddonBuild(root: string): AddonBuildInfo | null {
  const electron = packageVersion(root, 'electron');
  const betterSqlite3 = packageVersion(root, 'better-sqlite3');
  if (!electron || !betterSqlite3) return null;
  return { electron, betterSqlite3, platform: process.platform, arch: process.arch };
}

/** Whether the checkout's Electron addon matches its Electron and better-sqlite3. */
export function checkoutAddonStatus(root: string): ReturnType<typeof addonStatus> {
  const wanted = wantedAddonBuild(root);
  if (!wanted) return 'missing';
  const paths = electronAddonPaths(root);
  let recorded: unknown = null;
  try {
    recorded = JSON.parse(readFileSync(paths.info, 'utf8'));
  } catch {
    recorded = null;
  }
  return addonStatus(recorded, existsSync(paths.addon), wanted);
}

/**
 * Builds better-sqlite3 for the checkout's Electron into native/electron/, leaving the Node build
 * in node_modules untouched (tests and `npm run serve` keep working, even while this runs). A
 * copy of the package is rebuilt in a staging folder by @electron/rebuild, which fetches a
 * prebuilt binary for Electron's ABI when one exists and otherwise compiles against Electron's
 * headers; both need the network. The staging folder sits inside the checkout so the rebuild
 * finds the checkout's prebuild-install and node-gyp.
 */
export async function buildElectronAddon(root: string): Promise<AddonBuildInfo> {
  const wanted = wantedAddonBuild(root);
  if (!wanted) throw new Error('electron and better-sqlite3 must be installed (npm install) first');
  const paths = electronAddonPaths(root);
  const staging = join(paths.dir, 'staging');
  const stagedModule = join(staging, 'node_modules', 'better-sqlite3');
  const sourceModule = join(root, 'node_modules', 'better-sqlite3');
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'node_modules'), { recursive: true });
  try {
    cpSync(sourceModule, stagedModule, {
      recursive: true,
      filter: (source) => source !== join(sourceModule, 'build') && source !== join(sourceModule, 'prebuilds'),
    });
    writeFileSync(
      join(staging, 'package.json'),
      JSON.stringify({
        name: 'quire-electron-addon',
        private: true,
        dependencies: { 'better-sqlite3': wanted.betterSqlite3 },
      }),
    );
    const { rebuild } = await import('@electron/rebuild');
    await rebuild({
      buildPath: staging,
      electronVersion: wanted.electron,
      arch: wanted.arch,
      onlyModules: ['better-sqlite3'],
      force: true,
    });
    const built = join(stagedModule, 'build', 'Release', 'better_sqlite3.node');
    if (!existsSync(built)) throw new Error(`the rebuild finished without producing ${built}`);
    copyFileSync(built, paths.addon);
    writeFileSync(paths.info, `${JSON.stringify(wanted, null, 2)}\n`);
    return wanted;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
