import { dirname, join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import type { ServerChildOptions } from '../server-child/server-child-protocol.js';
import { buildMenuTemplate, type MenuActions } from './app-menu.js';
import { resolveStartupDatabase, withDatabaseExtension } from './database-path.js';
import { editorOpenLine } from './desktop-signals.js';
import { choosePort, isExplicit, type PortChoice, startOnFirstFreePort } from './port-choice.js';
import type { ServerChild } from './server-launcher.js';
import { forgetRecentDatabase, rememberDatabase, type SettingsStore } from './settings-store.js';

/**
 * The operating system as the desktop app uses it. main.ts implements it with Electron; tests
 * with fakes, so this controller holds the app's behaviour without importing Electron.
 */
export interface DesktopHost {
  launchServer(options: ServerChildOptions): Promise<ServerChild>;
  /** Shows the editor at `origin` in the main window (creating the window the first time). */
  showEditor(origin: string, dbFile: string): void;
  setMenu(template: MenuItemConstructorOptions[]): void;
  askNewDatabaseFile(defaultPath: string): Promise<string | null>;
  askExistingDatabaseFile(defaultPath: string): Promise<string | null>;
  showError(title: string, message: string): void;
  showNotice(title: string, message: string): void;
  showInFolder(file: string): void;
  copyText(text: string): void;
  openExternally(url: string): void;
  fileExists(file: string): boolean;
  /** A line for the terminal that started the app. */
  log(line: string): void;
}

/** Facts fixed for the app's run. */
export interface DesktopConfig {
  platform: NodeJS.Platform;
  isDevelopment: boolean;
  cwd: string;
  /** `content.sqlite` in userData. */
  defaultDatabaseFile: string;
  argDb?: string;
  envDb?: string;
  argPort?: number;
  envPort?: number;
  defaultPort: number;
  host: string;
  editorName: string;
  editorDir: string | null;
  nativeBinding?: string;
  apiDocsUrl: string;
}

/** After this many crashes in one session the server is not restarted again. */
export const MAX_SERVER_RESTARTS = 3;

function explain(error: unknown): string {
  const explanation = (error as { explanation?: unknown })?.explanation;
  if (typeof explanation === 'string') return explanation;
  return (error as Error)?.message ?? String(error);
}

/**
 * The desktop app's behaviour: which database and port to serve, the server child's life
 * (start, switch database, restart after a crash, stop), the menu's commands and what is
 * remembered in settings. One command runs at a time, in order.
 */
export class DesktopApp {
  private server: ServerChild | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private restarts = 0;
  private stopped = false;

  constructor(
    private readonly host: DesktopHost,
    private readonly settings: SettingsStore,
    private readonly config: DesktopConfig,
  ) {}

  /** The database being served, or null. */
  get databaseFile(): string | null {
    return this.server?.dbFile ?? null;
  }

  /** The editor's origin, or null while no server runs. */
  get origin(): string | null {
    return this.server?.origin ?? null;
  }

  /** Serves the startup database and shows the editor; false (after telling the user) when it cannot. */
  start(): Promise<boolean> {
    return this.enqueue(async () => {
      const startup = resolveStartupDatabase({
        argDb: this.config.argDb,
        envDb: this.config.envDb,
        lastDatabase: this.settings.get().lastDatabase,
        defaultFile: this.config.defaultDatabaseFile,
        cwd: this.config.cwd,
        exists: (file) => this.host.fileExists(file),
      });
      const choice = choosePort({
        argPort: this.config.argPort,
        envPort: this.config.envPort,
        rememberedPort: this.settings.get().port,
        defaultPort: this.config.defaultPort,
      });
      try {
        await this.serve(startup.file, choice);
      } catch (error) {
        this.host.showError('Quire could not start', explain(error));
        return false;
      }
      if (startup.notice) this.host.showNotice('Database not found', startup.notice);
      return true;
    });
  }

  /** Serves another database on the same port, returning to the previous one if it cannot open. */
  openDatabase(file: string): Promise<void> {
    return this.enqueue(() => this.switchTo(file));
  }

  /** The commands of the application menu. */
  readonly actions: MenuActions = {
    newDatabase: () => void this.enqueue(() => this.newDatabase()),
    openDatabase: () => void this.enqueue(() => this.chooseDatabase()),
    openRecent: (file) => void this.enqueue(() => this.openRecent(file)),
    clearRecent: () => {
      this.settings.update((settings) => ({ ...settings, recentDatabases: [] }));
      this.refreshMenu();
    },
    showDatabaseInFolder: () => {
      if (this.server) this.host.showInFolder(this.server.dbFile);
    },
    copyApiUrl: () => {
      if (this.server) this.host.copyText(`${this.server.origin}/api`);
    },
    openApiDocs: () => this.host.openExternally(this.config.apiDocsUrl),
  };

  /** Resolves once every command started so far has finished (menu commands run in the background). */
  async whenIdle(): Promise<void> {
    let queue: Promise<unknown>;
    do {
      queue = this.queue;
      await queue;
    } while (queue !== this.queue);
  }

  /** Stops the server (finishing requests in flight and closing the database). */
  stop(): Promise<void> {
    this.stopped = true;
    return this.enqueue(async () => {
      const server = this.server;
      this.server = null;
      await server?.stop();
    });
  }

  /** Rebuilds the application menu from the current state. */
  refreshMenu(): void {
    this.host.setMenu(
      buildMenuTemplate(
        {
          platform: this.config.platform,
          isDevelopment: this.config.isDevelopment,
          recentDatabases: this.settings.get().recentDatabases,
          databaseFile: this.databaseFile,
        },
        this.actions,
      ),
    );
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async serve(dbFile: string, choice: PortChoice): Promise<void> {
    const server = await startOnFirstFreePort(choice, (port) =>
      this.host.launchServer({
        dbFile,
        port,
        host: this.config.host,
        editorName: this.config.editorName,
        editorDir: this.config.editorDir,
        ...(this.config.nativeBinding ? { nativeBinding: this.config.nativeBinding } : {}),
      }),
    );
    this.server = server;
    server.onUnexpectedExit((code) => this.restartAfterCrash(server, code));
    this.settings.update((settings) => ({
      ...rememberDatabase(settings, dbFile),
      // A port given with --port or QUIRE_PORT is for this run; otherwise keep the URL stable.
      port: isExplicit(choice) ? settings.port : server.port,
    }));
    this.host.showEditor(server.origin, dbFile);
    this.refreshMenu();
    this.host.log(editorOpenLine(server.origin, dbFile));
  }

  private async switchTo(file: string): Promise<void> {
    const previous = this.server;
    if (previous?.dbFile === file) return;
    // The same port again, so the API URL a site build uses stays valid.
    const choice: PortChoice = previous
      ? { port: previous.port, source: 'remembered' }
      : choosePort({ rememberedPort: this.settings.get().port, defaultPort: this.config.defaultPort });
    this.server = null;
    await previous?.stop();
    try {
      await this.serve(file, choice);
    } catch (error) {
      this.host.showError('Could not open the database', explain(error));
      if (!previous) return this.refreshMenu();
      try {
        await this.serve(previous.dbFile, choice);
      } catch (again) {
        this.host.showError('Quire could not reopen the previous database', explain(again));
        this.refreshMenu();
      }
    }
  }

  private async newDatabase(): Promise<void> {
    const folder = dirname(this.databaseFile ?? this.config.defaultDatabaseFile);
    const chosen = await this.host.askNewDatabaseFile(join(folder, 'content.sqlite'));
    if (!chosen) return;
    const file = withDatabaseExtension(chosen);
    if (this.host.fileExists(file)) {
      this.host.showError(
        'That file already exists',
        `${file} already exists and Quire never replaces a file. Open it with File > Open Database..., or choose another name.`,
      );
      return;
    }
    await this.switchTo(file);
  }

  private async chooseDatabase(): Promise<void> {
    const folder = dirname(this.databaseFile ?? this.config.defaultDatabaseFile);
    const chosen = await this.host.askExistingDatabaseFile(folder);
    if (chosen) await this.switchTo(chosen);
  }

  private async openRecent(file: string): Promise<void> {
    if (!this.host.fileExists(file)) {
      this.settings.update((settings) => forgetRecentDatabase(settings, file));
      this.refreshMenu();
      this.host.showError('Database not found', `${file} was moved or deleted; it is removed from Open Recent.`);
      return;
    }
    await this.switchTo(file);
  }

  private restartAfterCrash(server: ServerChild, code: number): void {
    if (this.server !== server || this.stopped) return;
    this.server = null;
    this.refreshMenu();
    this.restarts += 1;
    if (this.restarts > MAX_SERVER_RESTARTS) {
      this.host.showError(
        'The Quire server keeps stopping',
        `It stopped ${this.restarts} times (last exit code ${code}). Saved changes are in ${server.dbFile}; quit and start Quire again.`,
      );
      return;
    }
    this.host.log(`Quire: the server stopped unexpectedly (exit code ${code}); restarting it.`);
    void this.enqueue(async () => {
      if (this.stopped) return;
      try {
        await this.serve(server.dbFile, { port: server.port, source: 'remembered' });
      } catch (error) {
        this.host.showError('Quire could not restart its server', explain(error));
      }
    });
  }
}
