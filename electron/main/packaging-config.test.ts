import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { electronAddonPaths, PACKAGED_ADDON_PATH } from './native-addon.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(join(root, 'package.json'));

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const data = readFileSync(file);
  expect(data.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe('electron-builder configuration', () => {
  let config: any;
  beforeAll(async () => {
    // electron-builder's own loader and schema check, as `npm run dist` runs them.
    const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config');
    const { DebugLogger } = require('builder-util');
    config = await getConfig(root, join(root, 'electron-builder.yml'), null);
    await validateConfiguration(config, new DebugLogger(false));
  });

  it('names the app and its id', () => {
    expect(config.productName).toBe('Quire');
    expect(config.appId).toBe('app.quire.desktop');
  });

  it('builds AppImage and deb, NSIS, and dmg', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target).toBe('nsis');
    expect(config.mac.target).toBe('dmg');
  });

  it('ships the Electron SQLite addon where the app loads it from', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.extraResources).toEqual([
      { from: relative(root, electronAddonPaths(root).addon), to: PACKAGED_ADDON_PATH },
    ]);
  });

  it('packs the compiled app but not the npm start launcher', () => {
    const filters: string[] = config.files[0].filter;
    expect(filters).toContain('dist/**');
    expect(filters).toContain('!dist/electron/launcher/**');
  });

  it('packs the README and every docs page it links to, for the Help menu offline', () => {
    const filters: string[] = config.files[0].filter;
    expect(filters).toContain('README.md');
    expect(filters).toContain('docs/*.md');
    expect(readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))).toContain('api.md');
  });

  it('finds every icon it names in resources/, at the sizes installers need', () => {
    expect(pngSize(join(root, 'resources', 'icon.png'))).toEqual({ width: 1024, height: 1024 });
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      expect(pngSize(join(root, config.linux.icon, `${size}x${size}.png`))).toEqual({ width: size, height: size });
    }
    const ico = readFileSync(join(root, config.win.icon));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    expect(ico.readUInt16LE(4)).toBeGreaterThanOrEqual(6);
    const icns = readFileSync(join(root, config.mac.icon));
    expect(icns.subarray(0, 4).toString('ascii')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
  });
});

describe('what the packaged app runs', () => {
  it('starts at the compiled main process', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(pkg.main).toBe('dist/electron/main/main.js');
    expect(readdirSync(join(root, 'electron', 'main'))).toContain('main.ts');
  });

  it('never imports the launcher, which the package leaves out', () => {
    for (const folder of ['main', 'server-child']) {
      for (const file of readdirSync(join(root, 'electron', folder))) {
        if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
        const source = readFileSync(join(root, 'electron', folder, file), 'utf8');
        expect(source, `electron/${folder}/${file}`).not.toMatch(/from '\.\.\/launcher\//);
      }
    }
  });
});
