import { join } from 'node:path';
import { EXIT_REPORTED_FAILURE } from '../main/desktop-signals.js';

/**
 * What `npm start` does, decided from facts about this machine without starting anything: open
 * the desktop app, or serve the editor headless and say why in one line.
 */

/** Where the `electron` npm package keeps (or would keep) its binary. */
export interface ElectronLookup {
  /** node_modules/electron, or null when the package is not installed. */
  packageDir: string | null;
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  exists(path: string): boolean;
  /** Text of a file, or null when it cannot be read. */
  readText(path: string): string | null;
}

/** The Electron executable's path inside the package's dist folder, per platform. */
export function electronExecutableName(platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'Electron.app/Contents/MacOS/Electron';
  if (platform === 'win32') return 'electron.exe';
  return 'electron';
}

/**
 * Finds the Electron binary the way the `electron` package does (path.txt under its folder,
 * `ELECTRON_OVERRIDE_DIST_PATH` honoured), without requiring the package: requiring it when the
 * binary is missing starts a download, which is what cannot happen here.
 */
export function findElectronBinary(lookup: ElectronLookup): string | null {
  if (!lookup.packageDir) return null;
  const relative =
    lookup.readText(join(lookup.packageDir, 'path.txt'))?.trim() || electronExecutableName(lookup.platform);
  const distDir = lookup.env.ELECTRON_OVERRIDE_DIST_PATH?.trim() || join(lookup.packageDir, 'dist');
  const binary = join(distDir, relative);
  return lookup.exists(binary) ? binary : null;
}

/** True when a window can be shown: always on macOS and Windows; with X11 or Wayland elsewhere. */
export function displayAvailable(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY?.trim() || env.WAYLAND_DISPLAY?.trim());
}

/** Open the desktop app with this binary, or serve headless for this reason. */
export type LaunchDecision = { mode: 'desktop'; electronBinary: string } | { mode: 'headless'; reason: string };

/** The reasons `npm start` serves headless, as the fallback line names them. */
export const HEADLESS_REASONS = {
  binaryMissing: 'Electron binary missing',
  downloadFailed: 'Electron binary missing; its download failed',
  noDisplay: 'no display: DISPLAY and WAYLAND_DISPLAY are not set',
  addonBuildFailed: 'the SQLite module for Electron could not be built; `npm run rebuild:electron` shows why',
} as const;

/**
 * Whether to fetch the Electron binary before deciding: npm may have skipped the electron package's
 * download at install time (install scripts not allowed), and the package would otherwise fetch it
 * on first use. Not when a window could not be shown anyway, nor when the user points to their own
 * Electron (`ELECTRON_OVERRIDE_DIST_PATH`) or turned downloads off (`ELECTRON_SKIP_BINARY_DOWNLOAD`).
 */
export function shouldDownloadElectron(input: {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  packageDir: string | null;
  electronBinary: string | null;
}): boolean {
  const { env } = input;
  if (input.electronBinary || !input.packageDir || !displayAvailable(input.platform, env)) return false;
  return !env.ELECTRON_OVERRIDE_DIST_PATH?.trim() && !env.ELECTRON_SKIP_BINARY_DOWNLOAD?.trim();
}

/**
 * Decides between the desktop app and the headless fallback; the reason names every missing piece
 * (on this kind of server: the binary and the display).
 */
export function decideLaunch(input: {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  electronBinary: string | null;
  /** True when a download of the binary was tried and did not produce it. */
  downloadFailed?: boolean;
}): LaunchDecision {
  const reasons: string[] = [];
  if (!input.electronBinary) {
    reasons.push(input.downloadFailed ? HEADLESS_REASONS.downloadFailed : HEADLESS_REASONS.binaryMissing);
  }
  if (!displayAvailable(input.platform, input.env)) reasons.push(HEADLESS_REASONS.noDisplay);
  if (input.electronBinary && reasons.length === 0) return { mode: 'desktop', electronBinary: input.electronBinary };
  return { mode: 'headless', reason: reasons.join('; ') };
}

/** How the desktop app's process ended, as the launcher saw it. */
export interface DesktopExit {
  code: number | null;
  signal: string | null;
  /** Whether the app printed its "editor open" line before ending. */
  editorOpened: boolean;
  /** Whether the user interrupted `npm start` (Ctrl+C): then nothing falls back. */
  interrupted: boolean;
}

/** Exit with this code, or fall back to the headless server for this reason. */
export type AfterDesktop = { fallback: false; exitCode: number } | { fallback: true; reason: string };

/**
 * What to do when the desktop app ends. After its window was open, when it ended normally or
 * after reporting its own failure (a dialog), or when the user pressed Ctrl+C, the launcher exits
 * with its code. Ending before the
 * window opened, any other way (missing system libraries, an unusable display, a crash), means
 * Electron cannot run here: fall back to the headless server.
 */
export function afterDesktopExit(exit: DesktopExit): AfterDesktop {
  if (exit.interrupted) return { fallback: false, exitCode: exit.code ?? 130 };
  if (exit.editorOpened || exit.code === 0 || exit.code === EXIT_REPORTED_FAILURE) {
    return { fallback: false, exitCode: exit.code ?? 1 };
  }
  const how = exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
  return { fallback: true, reason: `Electron ${how} before opening a window` };
}

/** The one line `npm start` prints when it serves the editor instead of opening the app. */
export function fallbackLine(reason: string, editorUrl: string): string {
  return `Quire: the desktop window is not available here (${reason}); serving the editor at ${editorUrl} instead.`;
}
