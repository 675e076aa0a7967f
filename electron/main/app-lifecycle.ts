import { existsSync, readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { app, type BrowserWindow, BrowserWindow as ElectronWindow, screen, session } from 'electron';
import { DATABASE_FILE_NAME } from '../../server/config/app-paths.js';
import { DEFAULT_HOST, DEFAULT_PORT } from '../../server/config/listen-defaults.js';
import { apiDocumentationUrl } from './app-menu.js';
import { parseDesktopArgs } from './command-line.js';
import { DesktopApp, type DesktopConfig } from './desktop-app.js';
import { EXIT_REPORTED_FAILURE } from './desktop-signals.js';
import { createElectronHost } from './electron-host.js';
import { createMainWindow } from './main-window.js';
import { nativeBindingFor } from './native-addon.js';
import { installSecurityHandlers } from './security-handlers.js';
import { loadSettings, SettingsStore, settingsFile } from './settings-store.js';
import { claimSingleInstance } from './single-instance.js';
import { restoreWindowState } from './window-state.js';

function osUserName(): string {
  try {
    return userInfo().username || 'editor';
  } catch {
    return 'editor';
  }
}

function readHomepage(appRoot: string): unknown {
  try {
    return JSON.parse(readFileSync(join(appRoot, 'package.json'), 'utf8')).homepage;
  } catch {
    return undefined;
  }
}

/** Facts of this run: the checkout or the installed app, its command line and folders. */
function desktopConfig(appRoot: string): DesktopConfig & { problems: string[] } {
  // The executable comes first; the app folder (from a checkout) is a positional the parser skips.
  const args = parseDesktopArgs(process.argv.slice(1), process.env);
  return {
    ...args,
    platform: process.platform,
    isDevelopment: !app.isPackaged,
    cwd: process.cwd(),
    defaultDatabaseFile: join(app.getPath('userData'), DATABASE_FILE_NAME),
    defaultPort: DEFAULT_PORT,
    host: DEFAULT_HOST,
    editorName: osUserName(),
    editorDir: join(appRoot, 'dist', 'renderer'),
    nativeBinding: nativeBindingFor(app.isPackaged, appRoot, process.resourcesPath),
    apiDocsUrl: apiDocumentationUrl(readHomepage(appRoot), join(appRoot, 'docs', 'api.md')),
  };
}

/**
 * The desktop app's main process: one instance, a server child serving the database, one window
 * on the editor it serves, the menu, and a clean stop of the server when the app quits.
 */
export function runDesktopApp(): void {
  let window: BrowserWindow | null = null;
  const focusWindow = () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.show();
    window.focus();
  };
  if (!claimSingleInstance(app, focusWindow)) {
    console.log('Quire is already open; its window was brought to the front.');
    app.exit(0);
    return;
  }

  const appRoot = app.getAppPath();
  const config = desktopConfig(appRoot);
  const loaded = loadSettings(settingsFile(app.getPath('userData')));
  if (loaded.movedAside) console.error(`Quire: unreadable settings moved to ${loaded.movedAside}; using defaults.`);
  const store = new SettingsStore(
    settingsFile(app.getPath('userData')),
    (error) => console.error(`Quire: could not save settings: ${(error as Error).message}`),
    loaded.settings,
  );
  const iconFile = join(appRoot, 'resources', 'icon.png');
  let desktop: DesktopApp;

  const showEditor = (origin: string) => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow(ElectronWindow, {
        state: restoreWindowState(
          store.get().window,
          screen.getAllDisplays().map((display) => display.workArea),
        ),
        isDevelopment: config.isDevelopment,
        iconFile: existsSync(iconFile) ? iconFile : null,
        databaseFile: () => desktop.databaseFile,
        onStateChange: (state) => store.update((settings) => ({ ...settings, window: state })),
      });
    }
    window
      .loadURL(`${origin}/`)
      .catch((error: Error) => console.error(`Quire: could not load the editor: ${error.message}`));
  };

  const host = createElectronHost({ window: () => window, showEditor });
  desktop = new DesktopApp(host, store, config);

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting) return;
    // Stop the server first: requests in flight finish and the database closes cleanly.
    event.preventDefault();
    quitting = true;
    desktop
      .stop()
      .catch((error: Error) => console.error(`Quire: the server did not stop cleanly: ${error.message}`))
      .finally(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit());
  app.on('window-all-closed', () => {
    // macOS apps stay open without windows; the Dock icon brings the editor back.
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if ((!window || window.isDestroyed()) && desktop.origin) showEditor(desktop.origin);
  });

  void app.whenReady().then(async () => {
    installSecurityHandlers(app, session.defaultSession, {
      appOrigin: () => desktop.origin,
      openExternally: host.openExternally,
    });
    desktop.refreshMenu();
    if (config.problems.length > 0) {
      host.showError('Quire could not start', config.problems.join('\n'));
      app.exit(EXIT_REPORTED_FAILURE);
      return;
    }
    if (!(await desktop.start())) app.exit(EXIT_REPORTED_FAILURE);
  });
}
