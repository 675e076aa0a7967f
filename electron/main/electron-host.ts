import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app, type BrowserWindow, clipboard, dialog, Menu, shell, utilityProcess } from 'electron';
import { CODE_CACHE_FOLDER_ENV, serverChildEntry } from '../server-child/server-child-entry-choice.js';
import { DATABASE_EXTENSIONS } from './database-path.js';
import type { DesktopHost } from './desktop-app.js';
import { launchServerChild } from './server-launcher.js';

const DATABASE_FILTERS = [{ name: 'Quire database', extensions: DATABASE_EXTENSIONS }];

/** What the Electron host needs from the lifecycle: the window (if any) and how to show the editor. */
export interface ElectronHostOptions {
  window(): BrowserWindow | null;
  showEditor(origin: string, dbFile: string): void;
}

/**
 * The desktop app's `DesktopHost` on Electron: the server child in a utilityProcess, native
 * dialogs (attached to the window when there is one), the menu bar, the OS shell and clipboard.
 * Each message shown in a dialog is also printed, for whoever started the app from a terminal.
 */
export function createElectronHost(options: ElectronHostOptions): DesktopHost {
  const attached = () => options.window() ?? undefined;
  // Chosen once: the build does not change under a running app.
  const entry = serverChildEntry();
  const env = { ...process.env, [CODE_CACHE_FOLDER_ENV]: join(app.getPath('userData'), 'code-cache') };
  return {
    launchServer: (childOptions) =>
      launchServerChild(
        () => utilityProcess.fork(entry, [], { serviceName: 'Quire server', stdio: 'inherit', env }),
        childOptions,
        { onLog: (message, detail) => console.error(`Quire server: ${message}\n${detail}`) },
      ),
    showEditor: options.showEditor,
    setMenu: (template) => Menu.setApplicationMenu(Menu.buildFromTemplate(template)),
    async askNewDatabaseFile(defaultPath) {
      const window = attached();
      const dialogOptions = {
        title: 'New Database',
        buttonLabel: 'Create',
        defaultPath,
        filters: DATABASE_FILTERS,
        properties: ['createDirectory' as const],
      };
      const result = window
        ? await dialog.showSaveDialog(window, dialogOptions)
        : await dialog.showSaveDialog(dialogOptions);
      return result.canceled || !result.filePath ? null : result.filePath;
    },
    async askExistingDatabaseFile(defaultPath) {
      const window = attached();
      const dialogOptions = {
        title: 'Open Database',
        defaultPath,
        filters: [...DATABASE_FILTERS, { name: 'All files', extensions: ['*'] }],
        properties: ['openFile' as const],
      };
      const result = window
        ? await dialog.showOpenDialog(window, dialogOptions)
        : await dialog.showOpenDialog(dialogOptions);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
    showError(title, message) {
      console.error(`Quire: ${message}`);
      dialog.showErrorBox(title, message);
    },
    showNotice(title, message) {
      console.log(`Quire: ${message}`);
      const window = attached();
      const boxOptions = { type: 'info' as const, title, message: title, detail: message };
      void (window ? dialog.showMessageBox(window, boxOptions) : dialog.showMessageBox(boxOptions));
    },
    showInFolder: (file) => shell.showItemInFolder(file),
    copyText: (text) => clipboard.writeText(text),
    openExternally: (url) => {
      shell.openExternal(url).catch((error: Error) => console.error(`Quire: could not open ${url}: ${error.message}`));
    },
    fileExists: (file) => existsSync(file),
    log: (line) => console.log(line),
  };
}
