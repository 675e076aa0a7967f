import { explainStartError } from '../../server/cli-commands.js';
import type { RunningServer, ServerOptions } from '../../server/server.js';
import {
  type ChildMessage,
  type ParentMessage,
  parseParentMessage,
  type ServerChildOptions,
} from './server-child-protocol.js';

/** The part of Electron's `process.parentPort` the server child uses. */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  postMessage(message: ChildMessage): void;
}

/** What the server child runs on: the real ones in the utilityProcess, fakes or real ones in tests. */
export interface ServerChildDeps {
  startServer(options: ServerOptions): Promise<RunningServer>;
  exit(code: number): void;
}

/** The npm script that builds the Electron SQLite addon, named in explanations. */
export const REBUILD_COMMAND = 'npm run rebuild:electron';

/**
 * The one line shown when the server cannot start inside Electron. Adds the Electron-only failure
 * (a better-sqlite3 addon built for Node's ABI, or none) to the CLI's explanations.
 */
export function explainChildStartError(error: unknown, options: ServerChildOptions): string {
  const code = (error as { code?: unknown })?.code;
  const message = String((error as { message?: unknown })?.message ?? error);
  if (code === 'ERR_DLOPEN_FAILED' || /NODE_MODULE_VERSION|was compiled against a different/.test(message)) {
    return `The SQLite module is built for another runtime than this Electron; run ${REBUILD_COMMAND} (npm start does it for you).`;
  }
  if (code === 'MODULE_NOT_FOUND' && /better_sqlite3/.test(message)) {
    return `The SQLite module for Electron is missing; run ${REBUILD_COMMAND} (npm start does it for you).`;
  }
  return explainStartError(error, options);
}

function errorCode(error: unknown): string | null {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' ? code : null;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}

/**
 * The server child's whole life: wait for `start`, serve, report `ready` (or `start-failed` and
 * exit), and on `stop` close the server (finishing requests in flight and the database) before
 * exiting. Malformed messages are ignored.
 */
export function runServerChild(port: ParentPortLike, deps: ServerChildDeps): void {
  let state: 'idle' | 'starting' | 'running' | 'stopping' = 'idle';
  let server: RunningServer | null = null;
  let stopRequested = false;

  const stop = async () => {
    state = 'stopping';
    try {
      await server?.close();
    } finally {
      port.postMessage({ type: 'stopped' });
      deps.exit(0);
    }
  };

  const start = async (options: ServerChildOptions) => {
    state = 'starting';
    try {
      server = await deps.startServer({
        ...options,
        log: (message, error) => port.postMessage({ type: 'log', message, detail: describe(error) }),
      });
    } catch (error) {
      port.postMessage({
        type: 'start-failed',
        code: errorCode(error),
        explanation: explainChildStartError(error, options),
      });
      deps.exit(1);
      return;
    }
    state = 'running';
    if (stopRequested) return stop();
    port.postMessage({ type: 'ready', origin: server.origin, port: server.port, dbFile: options.dbFile });
  };

  port.on('message', ({ data }) => {
    const message: ParentMessage | null = parseParentMessage(data);
    if (!message) return;
    if (message.type === 'start' && state === 'idle') void start(message.options);
    else if (message.type === 'stop') {
      if (state === 'starting') stopRequested = true;
      else if (state !== 'stopping') void stop();
    }
  });
}
