import { describe, expect, it } from 'vitest';
import { type AddonBuildInfo, addonStatus, electronAddonPaths, nativeBindingFor } from './native-addon.js';

const wanted: AddonBuildInfo = { electron: '45.4.1', betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64' };

describe('Electron build of the SQLite addon', () => {
  it('lives in native/electron, apart from the Node build in node_modules', () => {
    expect(electronAddonPaths('/repo')).toEqual({
      dir: '/repo/native/electron',
      addon: '/repo/native/electron/better_sqlite3.node',
      info: '/repo/native/electron/build-info.json',
    });
  });

  it('is ready when built for these exact versions', () => {
    expect(addonStatus({ ...wanted }, true, wanted)).toBe('ready');
  });

  it('is missing without the addon file or its build record', () => {
    expect(addonStatus(wanted, false, wanted)).toBe('missing');
    expect(addonStatus(null, true, wanted)).toBe('missing');
  });

  it('is stale after an Electron or better-sqlite3 upgrade, or on another platform', () => {
    expect(addonStatus({ ...wanted, electron: '44.0.0' }, true, wanted)).toBe('stale');
    expect(addonStatus({ ...wanted, betterSqlite3: '12.0.0' }, true, wanted)).toBe('stale');
    expect(addonStatus({ ...wanted, arch: 'arm64' }, true, wanted)).toBe('stale');
  });

  it("is passed to the server child from the checkout, or from a packaged app's resources", () => {
    expect(nativeBindingFor(false, '/repo', '/unused')).toBe('/repo/native/electron/better_sqlite3.node');
    expect(nativeBindingFor(true, '/opt/Quire/resources/app.asar', '/opt/Quire/resources')).toBe(
      '/opt/Quire/resources/native/better_sqlite3.node',
    );
  });
});
