import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { isValidPort } from './port-choice.js';

/** File name of the desktop settings in the user-data folder. */
export const SETTINGS_FILE_NAME = 'settings.json';

/** How many databases File -> Open Recent lists. */
export const MAX_RECENT_DATABASES = 10;

/** The window's last normal (not maximized) bounds; x/y absent means "centered". */
export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

/** What the desktop app remembers between sessions. */
export interface DesktopSettings {
  window: WindowState | null;
  /** The database open when the app last ran. */
  lastDatabase: string | null;
  /** Most recent first, no duplicates, absolute paths. */
  recentDatabases: string[];
  /** The port the last session listened on. */
  port: number | null;
}

/** Settings of a first run. */
export function defaultSettings(): DesktopSettings {
  return { window: null, lastDatabase: null, recentDatabases: [], port: null };
}

/** Environment variable that moves the user-data folder (tests, portable setups). */
export const USER_DATA_ENV = 'QUIRE_USER_DATA_DIR';

/** The user-data folder: `QUIRE_USER_DATA_DIR` when set, else the OS's folder for Quire. */
export function resolveUserDataDir(env: NodeJS.ProcessEnv, osDefault: string, cwd: string = process.cwd()): string {
  const override = env[USER_DATA_ENV]?.trim();
  return override ? resolve(cwd, override) : osDefault;
}

/** The settings file in a user-data folder. */
export function settingsFile(userDataDir: string): string {
  return join(userDataDir, SETTINGS_FILE_NAME);
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isDatabasePath(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && isAbsolute(value);
}

function sanitizeWindow(value: unknown): WindowState | null {
  if (typeof value !== 'object' || value === null) return null;
  const { x, y, width, height, maximized } = value as Record<string, unknown>;
  if (!isFiniteNumber(width) || !isFiniteNumber(height) || width <= 0 || height <= 0) return null;
  const state: WindowState = { width: Math.round(width), height: Math.round(height), maximized: maximized === true };
  if (isFiniteNumber(x) && isFiniteNumber(y)) {
    state.x = Math.round(x);
    state.y = Math.round(y);
  }
  return state;
}

/**
 * Keeps every field of a parsed settings file that is well-formed and drops the rest, so one bad
 * value (edited by hand, written by a future version) costs that value, not all settings.
 */
export function sanitizeSettings(raw: unknown): DesktopSettings {
  const settings = defaultSettings();
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return settings;
  const value = raw as Record<string, unknown>;
  settings.window = sanitizeWindow(value.window);
  if (isDatabasePath(value.lastDatabase)) settings.lastDatabase = value.lastDatabase;
  if (Array.isArray(value.recentDatabases)) {
    settings.recentDatabases = [...new Set(value.recentDatabases.filter(isDatabasePath))].slice(
      0,
      MAX_RECENT_DATABASES,
    );
  }
  if (isValidPort(value.port) && value.port !== 0) settings.port = value.port;
  return settings;
}

/** Loaded settings, and where an unreadable file was moved aside (null when none was). */
export interface LoadedSettings {
  settings: DesktopSettings;
  movedAside: string | null;
}

/**
 * Reads the settings file. A missing file gives the defaults; a file that is not JSON is renamed
 * to `settings.json.corrupt-<time>` (kept for a bug report, out of the way of the next save) and
 * the defaults are used: bad settings never stop the app from opening.
 */
export function loadSettings(file: string, now: () => Date = () => new Date()): LoadedSettings {
  if (!existsSync(file)) return { settings: defaultSettings(), movedAside: null };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { settings: defaultSettings(), movedAside: null };
  }
  try {
    return { settings: sanitizeSettings(JSON.parse(text)), movedAside: null };
  } catch {
    const aside = `${file}.corrupt-${now().toISOString().replace(/[:.]/g, '-')}`;
    try {
      renameSync(file, aside);
      return { settings: defaultSettings(), movedAside: aside };
    } catch {
      return { settings: defaultSettings(), movedAside: null };
    }
  }
}

/**
 * Writes the settings atomically: a temporary file renamed over the old one, so a crash or power
 * cut mid-write leaves the previous settings, never half a file.
 */
export function saveSettings(file: string, settings: DesktopSettings): void {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Records a database as the one in use: last database, and first in the recent list. */
export function rememberDatabase(settings: DesktopSettings, file: string): DesktopSettings {
  return {
    ...settings,
    lastDatabase: file,
    recentDatabases: [file, ...settings.recentDatabases.filter((recent) => recent !== file)].slice(
      0,
      MAX_RECENT_DATABASES,
    ),
  };
}

/** Drops a database from the recent list (it was moved or deleted). */
export function forgetRecentDatabase(settings: DesktopSettings, file: string): DesktopSettings {
  return { ...settings, recentDatabases: settings.recentDatabases.filter((recent) => recent !== file) };
}

/**
 * The settings of a running app: read once, changed through `update`, each change saved at once.
 * A failed save is reported and the app goes on with the settings in memory.
 */
export class SettingsStore {
  private current: DesktopSettings;

  constructor(
    readonly file: string,
    private readonly onSaveError: (error: unknown) => void = () => {},
    loaded: DesktopSettings = loadSettings(file).settings,
  ) {
    this.current = loaded;
  }

  /** The current settings (treat as read-only; change them with `update`). */
  get(): DesktopSettings {
    return this.current;
  }

  /** Applies a change and saves the result. */
  update(change: (settings: DesktopSettings) => DesktopSettings): DesktopSettings {
    this.current = sanitizeSettings(change(this.current));
    try {
      saveSettings(this.file, this.current);
    } catch (error) {
      this.onSaveError(error);
    }
    return this.current;
  }
}
