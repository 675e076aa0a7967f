import { pathToFileURL } from 'node:url';
import type { MenuItemConstructorOptions } from 'electron';

/** What the menu items do (the desktop app's commands). */
export interface MenuActions {
  newDatabase(): void;
  openDatabase(): void;
  openRecent(file: string): void;
  clearRecent(): void;
  showDatabaseInFolder(): void;
  copyApiUrl(): void;
  openApiDocs(): void;
}

/** What the menu shows. */
export interface MenuState {
  platform: NodeJS.Platform;
  /** Running from a checkout (not packaged): adds reload and developer tools. */
  isDevelopment: boolean;
  recentDatabases: string[];
  /** The open database, or null while none is being served. */
  databaseFile: string | null;
}

/** The README section the Help menu opens on the project's homepage. */
export const API_DOCS_ANCHOR = 'api';

/**
 * The address of the API reference: the README's API section on the project's homepage
 * (package.json `homepage`) when it has one, otherwise the API page shipped with the app
 * (docs/api.md), which needs no network.
 */
export function apiDocumentationUrl(homepage: unknown, apiPageFile: string): string {
  if (typeof homepage === 'string' && /^https?:\/\//.test(homepage)) {
    const url = new URL(homepage);
    url.hash = API_DOCS_ANCHOR;
    return url.href;
  }
  return pathToFileURL(apiPageFile).href;
}

function fileMenu(state: MenuState, actions: MenuActions): MenuItemConstructorOptions {
  const open = state.databaseFile !== null;
  const recent: MenuItemConstructorOptions[] =
    state.recentDatabases.length === 0
      ? [{ label: 'No Recent Databases', enabled: false }]
      : [
          ...state.recentDatabases.map(
            (file): MenuItemConstructorOptions => ({
              label: file,
              type: 'checkbox',
              checked: file === state.databaseFile,
              click: () => actions.openRecent(file),
            }),
          ),
          { type: 'separator' },
          { label: 'Clear Recent', click: () => actions.clearRecent() },
        ];
  return {
    label: '&File',
    submenu: [
      { label: 'New Database...', accelerator: 'CmdOrCtrl+Shift+N', click: () => actions.newDatabase() },
      { label: 'Open Database...', accelerator: 'CmdOrCtrl+O', click: () => actions.openDatabase() },
      { label: 'Open Recent', submenu: recent },
      { type: 'separator' },
      { label: 'Show Database in Folder', enabled: open, click: () => actions.showDatabaseInFolder() },
      { label: 'Copy API URL', enabled: open, click: () => actions.copyApiUrl() },
      { type: 'separator' },
      state.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
    ],
  };
}

function editMenu(state: MenuState): MenuItemConstructorOptions {
  return {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(state.platform === 'darwin' ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  };
}

function viewMenu(state: MenuState): MenuItemConstructorOptions {
  const development: MenuItemConstructorOptions[] = state.isDevelopment
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }]
    : [];
  return {
    label: '&View',
    submenu: [
      ...development,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
}

/**
 * The application menu: File (databases and the API URL), Edit (standard roles), View (zoom and
 * full screen; reload and developer tools only in development), Help (the API documentation). On
 * macOS the app menu comes first and a Window menu is added, as users there expect.
 */
export function buildMenuTemplate(state: MenuState, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = state.platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    fileMenu(state, actions),
    editMenu(state),
    viewMenu(state),
    ...(mac ? [{ role: 'windowMenu' } as const] : []),
    {
      label: '&Help',
      role: 'help',
      submenu: [{ label: 'API Documentation', click: () => actions.openApiDocs() }],
    },
  ];
}
