import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { WindowState } from './settings-store.js';
import { MIN_WINDOW_SIZE, windowTitle } from './window-state.js';

/** How the main window is made and what it reports back. */
export interface MainWindowOptions {
  state: WindowState;
  isDevelopment: boolean;
  /** Window icon (Linux and Windows in development; installers set their own). */
  iconFile: string | null;
  /** The database shown, for the title. */
  databaseFile(): string | null;
  /** Called (debounced) when the window moves or resizes, and when it closes. */
  onStateChange(state: WindowState): void;
}

/** Waits this long after the last move or resize before saving the window's state. */
const SAVE_DELAY_MS = 500;

/**
 * The editor window's options, following Electron's security checklist: the page runs sandboxed,
 * context-isolated and without Node; no webviews; developer tools only in development. There is
 * no preload script: the editor talks to the server over HTTP and needs nothing from Electron.
 */
export function mainWindowOptions(options: MainWindowOptions): BrowserWindowConstructorOptions {
  const { state } = options;
  return {
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'Quire',
    backgroundColor: '#ffffff',
    ...(options.iconFile ? { icon: options.iconFile } : {}),
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      devTools: options.isDevelopment,
    },
  };
}

/** Creates the editor window; `Window` is Electron's BrowserWindow class (injected). */
export function createMainWindow(
  Window: new (options: BrowserWindowConstructorOptions) => BrowserWindow,
  options: MainWindowOptions,
): BrowserWindow {
  const window = new Window(mainWindowOptions(options));
  if (options.state.maximized) window.maximize();
  const show = () => {
    if (!window.isDestroyed() && !window.isVisible()) window.show();
  };
  window.once('ready-to-show', show);
  // A page that fails to load never becomes "ready to show"; the window appears anyway.
  window.webContents.once('did-fail-load', show);

  const report = () => {
    if (window.isDestroyed()) return;
    options.onStateChange({ ...window.getNormalBounds(), maximized: window.isMaximized() });
  };
  let timer: NodeJS.Timeout | undefined;
  const reportSoon = () => {
    clearTimeout(timer);
    timer = setTimeout(report, SAVE_DELAY_MS);
  };
  window.on('resize', reportSoon);
  window.on('move', reportSoon);
  window.on('maximize', reportSoon);
  window.on('unmaximize', reportSoon);
  window.on('close', () => {
    clearTimeout(timer);
    report();
  });

  window.on('page-title-updated', (event, title) => {
    event.preventDefault();
    window.setTitle(windowTitle(title, options.databaseFile()));
  });
  return window;
}
