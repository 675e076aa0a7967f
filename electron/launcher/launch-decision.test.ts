import { describe, expect, it } from 'vitest';
import { EXIT_REPORTED_FAILURE } from '../main/desktop-signals.js';
import {
  afterDesktopExit,
  decideLaunch,
  displayAvailable,
  fallbackLine,
  findElectronBinary,
  HEADLESS_REASONS,
  shouldDownloadElectron,
} from './launch-decision.js';

describe('finding the Electron binary', () => {
  const files = (present: string[], texts: Record<string, string> = {}) => ({
    exists: (path: string) => present.includes(path),
    readText: (path: string) => texts[path] ?? null,
  });

  it('uses the path the electron package recorded when it downloaded the binary', () => {
    const lookup = {
      packageDir: '/repo/node_modules/electron',
      platform: 'linux' as const,
      env: {},
      ...files(['/repo/node_modules/electron/dist/electron'], { '/repo/node_modules/electron/path.txt': 'electron' }),
    };
    expect(findElectronBinary(lookup)).toBe('/repo/node_modules/electron/dist/electron');
  });

  it('finds nothing when the download never happened (no dist folder, no path.txt)', () => {
    const lookup = { packageDir: '/repo/node_modules/electron', platform: 'linux' as const, env: {}, ...files([]) };
    expect(findElectronBinary(lookup)).toBeNull();
  });

  it('finds nothing when the electron package is not installed', () => {
    expect(findElectronBinary({ packageDir: null, platform: 'linux', env: {}, ...files([]) })).toBeNull();
  });

  it('knows where the binary sits on macOS and Windows', () => {
    const mac = '/repo/node_modules/electron/dist/Electron.app/Contents/MacOS/Electron';
    expect(
      findElectronBinary({ packageDir: '/repo/node_modules/electron', platform: 'darwin', env: {}, ...files([mac]) }),
    ).toBe(mac);
    const win = '/repo/node_modules/electron/dist/electron.exe';
    expect(
      findElectronBinary({ packageDir: '/repo/node_modules/electron', platform: 'win32', env: {}, ...files([win]) }),
    ).toBe(win);
  });

  it('honours ELECTRON_OVERRIDE_DIST_PATH, as the electron package does', () => {
    const lookup = {
      packageDir: '/repo/node_modules/electron',
      platform: 'linux' as const,
      env: { ELECTRON_OVERRIDE_DIST_PATH: '/opt/electron-45' },
      ...files(['/opt/electron-45/electron', '/repo/node_modules/electron/dist/electron']),
    };
    expect(findElectronBinary(lookup)).toBe('/opt/electron-45/electron');
    expect(findElectronBinary({ ...lookup, ...files(['/repo/node_modules/electron/dist/electron']) })).toBeNull();
  });
});

describe('display', () => {
  it('needs X11 or Wayland on Linux', () => {
    expect(displayAvailable('linux', {})).toBe(false);
    expect(displayAvailable('linux', { DISPLAY: '' })).toBe(false);
    expect(displayAvailable('linux', { DISPLAY: ':0' })).toBe(true);
    expect(displayAvailable('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe(true);
    expect(displayAvailable('freebsd', {})).toBe(false);
  });

  it('is always there on macOS and Windows', () => {
    expect(displayAvailable('darwin', {})).toBe(true);
    expect(displayAvailable('win32', {})).toBe(true);
  });
});

describe('launch decision', () => {
  it('opens the desktop app when the binary is there and a window can be shown', () => {
    expect(decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electronBinary: '/e/electron' })).toEqual({
      mode: 'desktop',
      electronBinary: '/e/electron',
    });
    expect(decideLaunch({ platform: 'win32', env: {}, electronBinary: 'C:\\e\\electron.exe' }).mode).toBe('desktop');
  });

  it('serves headless when the Electron binary is missing', () => {
    expect(decideLaunch({ platform: 'darwin', env: {}, electronBinary: null })).toEqual({
      mode: 'headless',
      reason: HEADLESS_REASONS.binaryMissing,
    });
    expect(
      decideLaunch({ platform: 'linux', env: { DISPLAY: ':0' }, electronBinary: null, downloadFailed: true }),
    ).toEqual({
      mode: 'headless',
      reason: 'Electron binary missing; its download failed',
    });
  });

  it('serves headless on a Linux machine without a display (a server over SSH)', () => {
    expect(decideLaunch({ platform: 'linux', env: {}, electronBinary: '/e/electron' })).toEqual({
      mode: 'headless',
      reason: HEADLESS_REASONS.noDisplay,
    });
  });

  it('names both missing pieces on a server with neither binary nor display (this machine)', () => {
    expect(decideLaunch({ platform: 'linux', env: {}, electronBinary: null })).toEqual({
      mode: 'headless',
      reason: 'Electron binary missing; no display: DISPLAY and WAYLAND_DISPLAY are not set',
    });
  });
});

describe('fetching the Electron binary first', () => {
  const base = {
    platform: 'linux' as const,
    env: { DISPLAY: ':0' },
    packageDir: '/repo/node_modules/electron',
    electronBinary: null,
  };

  it('happens when the electron package is there without its binary and a window could open', () => {
    expect(shouldDownloadElectron(base)).toBe(true);
    expect(shouldDownloadElectron({ ...base, platform: 'win32', env: {} })).toBe(true);
  });

  it('does not happen when pointless or unwanted', () => {
    expect(shouldDownloadElectron({ ...base, electronBinary: '/repo/node_modules/electron/dist/electron' })).toBe(
      false,
    );
    expect(shouldDownloadElectron({ ...base, packageDir: null })).toBe(false);
    expect(shouldDownloadElectron({ ...base, env: {} })).toBe(false);
    expect(shouldDownloadElectron({ ...base, env: { DISPLAY: ':0', ELECTRON_OVERRIDE_DIST_PATH: '/opt/e' } })).toBe(
      false,
    );
    expect(shouldDownloadElectron({ ...base, env: { DISPLAY: ':0', ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } })).toBe(false);
  });
});

describe('after the desktop app ends', () => {
  const exit = { code: 0, signal: null, editorOpened: false, interrupted: false };

  it('exits with the app when its window had opened, whatever the code', () => {
    expect(afterDesktopExit({ ...exit, editorOpened: true, code: 1 })).toEqual({ fallback: false, exitCode: 1 });
    expect(afterDesktopExit({ ...exit, editorOpened: true })).toEqual({ fallback: false, exitCode: 0 });
  });

  it('exits when the app ended normally before a window (a second launch handing over to the first)', () => {
    expect(afterDesktopExit(exit)).toEqual({ fallback: false, exitCode: 0 });
  });

  it('exits when the app already told the user why it could not start', () => {
    expect(afterDesktopExit({ ...exit, code: EXIT_REPORTED_FAILURE })).toEqual({
      fallback: false,
      exitCode: EXIT_REPORTED_FAILURE,
    });
  });

  it('exits when the user pressed Ctrl+C', () => {
    expect(afterDesktopExit({ ...exit, code: null, signal: 'SIGINT', interrupted: true })).toEqual({
      fallback: false,
      exitCode: 130,
    });
  });

  it('falls back when Electron died before its window opened', () => {
    expect(afterDesktopExit({ ...exit, code: 1 })).toEqual({
      fallback: true,
      reason: 'Electron exited with code 1 before opening a window',
    });
    expect(afterDesktopExit({ ...exit, code: null, signal: 'SIGSEGV' })).toEqual({
      fallback: true,
      reason: 'Electron was ended by SIGSEGV before opening a window',
    });
  });
});

describe('fallback line', () => {
  it('says in one line why there is no window and where the editor is', () => {
    const line = fallbackLine(HEADLESS_REASONS.binaryMissing, 'http://127.0.0.1:4780/');
    expect(line).toBe(
      'Quire: the desktop window is not available here (Electron binary missing); serving the editor at http://127.0.0.1:4780/ instead.',
    );
    expect(line).not.toContain('\n');
  });
});
