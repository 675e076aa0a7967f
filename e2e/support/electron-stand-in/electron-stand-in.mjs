// A stand-in for the parts of Electron's main-process API that Quire's main process uses, so the
// real main process (lifecycle, server child, settings, menu) runs under Node where no Electron
// binary exists. utilityProcess.fork is a real child process running the real server child
// entry; windows are recorded and their URL fetched, which is all a window does for the server.
// It prints `stand-in: ...` lines the test reads. It is not Electron: Chromium, sandboxing and
// the renderer are covered only by e2e/electron-app.test.ts where a binary exists.
import { fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { homedir } from 'node:os';
import { join } from 'node:path';

const say = (line) => console.log(`stand-in: ${line}`);
// Where a packaged app's resources folder would be.
process.resourcesPath = process.env.STAND_IN_RESOURCES;
const paths = { userData: join(homedir(), '.config', 'Quire') };
const readyEvents = new EventEmitter();
let ready = false;
let quitting = false;

class App extends EventEmitter {
  isPackaged = process.env.STAND_IN_PACKAGED === '1';
  getPath(name) {
    return paths[name];
  }
  setPath(name, value) {
    if (ready) throw new Error('setPath after ready');
    paths[name] = value;
  }
  getAppPath() {
    return process.env.STAND_IN_APP_PATH;
  }
  enableSandbox() {
    if (ready) throw new Error('enableSandbox after ready');
    say('sandbox enabled for all renderers');
  }
  requestSingleInstanceLock() {
    return true;
  }
  whenReady() {
    return ready ? Promise.resolve() : new Promise((resolve) => readyEvents.once('ready', resolve));
  }
  quit() {
    if (quitting) return;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    quitting = true;
    say('quit');
    process.exit(0);
  }
  exit(code) {
    say(`exit ${code}`);
    process.exit(code);
  }
}
export const app = new App();
setImmediate(() => {
  ready = true;
  readyEvents.emit('ready');
  app.emit('ready');
});

class WebContents extends EventEmitter {
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
}

export class BrowserWindow extends EventEmitter {
  static windows = [];
  static getAllWindows() {
    return BrowserWindow.windows;
  }
  constructor(options) {
    super();
    this.options = options;
    this.webContents = new WebContents();
    this.visible = false;
    BrowserWindow.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
    say(`window ${JSON.stringify(options.webPreferences)}`);
  }
  async loadURL(url) {
    const response = await fetch(url);
    say(`window loaded ${url} (${response.status}, ${response.headers.get('content-security-policy')})`);
    this.emit('ready-to-show');
    // What a page could try: open a window, navigate away. The guards decide.
    const opened = this.webContents.windowOpenHandler?.({ url: 'https://example.com/docs' });
    let prevented = false;
    this.webContents.emit('will-frame-navigate', {
      url: 'https://example.com/elsewhere',
      preventDefault: () => {
        prevented = true;
      },
    });
    say(`window.open: ${opened?.action}; navigation away prevented: ${prevented}`);
  }
  maximize() {}
  isDestroyed() {
    return false;
  }
  isVisible() {
    return this.visible;
  }
  show() {
    this.visible = true;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  focus() {}
  isMaximized() {
    return false;
  }
  getNormalBounds() {
    const { x = 0, y = 0, width, height } = this.options;
    return { x, y, width, height };
  }
  setTitle(title) {
    this.title = title;
  }
}

export const Menu = {
  buildFromTemplate: (template) => template,
  setApplicationMenu(template) {
    say(`menu ${template.map((item) => item.label ?? item.role).join(' ')}`);
  },
};

export const screen = { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] };

export const session = {
  defaultSession: {
    setPermissionRequestHandler: () => say('permission requests denied'),
    setPermissionCheckHandler: () => {},
  },
};

export const dialog = {
  showErrorBox: (title, message) => say(`error dialog: ${title}: ${message}`),
  showMessageBox: async (...args) => {
    const options = args.at(-1);
    say(`message dialog: ${options.detail}`);
    return { response: 0 };
  },
  showSaveDialog: async () => ({ canceled: true }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
};

export const shell = {
  openExternal: async (url) => say(`open externally ${url}`),
  showItemInFolder: (file) => say(`show in folder ${file}`),
};

export const clipboard = { writeText: (text) => say(`clipboard ${text}`) };

class UtilityProcess extends EventEmitter {
  constructor(modulePath, args, options = {}) {
    super();
    const shim = new URL('./parent-port-shim.mjs', import.meta.url).href;
    // Electron's `env` option, as Electron takes it: the child's whole environment.
    this.child = fork(modulePath, args, { execArgv: ['--import', shim], stdio: 'inherit', env: options.env });
    this.child.on('message', (message) => this.emit('message', message));
    this.child.on('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)));
    say(`utility process ${modulePath}`);
  }
  postMessage(message) {
    if (this.child.connected) this.child.send(message);
  }
  kill() {
    return this.child.kill();
  }
}

export const utilityProcess = { fork: (modulePath, args, options) => new UtilityProcess(modulePath, args, options) };
