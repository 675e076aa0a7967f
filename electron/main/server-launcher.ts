import {
  type ParentMessage,
  parseChildMessage,
  type ServerChildOptions,
} from '../server-child/server-child-protocol.js';

/** The part of Electron's `UtilityProcess` the launcher uses (injected, so tests need no Electron). */
export interface UtilityChild {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: ParentMessage): void;
  kill(): boolean;
}

/** Starts a new server child process (Electron: `utilityProcess.fork` of the child entry). */
export type ForkServerChild = () => UtilityChild;

/** The server could not start; `explanation` is one line for the user. */
export class ServerStartError extends Error {
  constructor(
    readonly code: string | null,
    readonly explanation: string,
  ) {
    super(explanation);
    this.name = 'ServerStartError';
  }
}

/** A server child that reported ready. */
export interface ServerChild {
  origin: string;
  port: number;
  dbFile: string;
  /** Asks the child to close the server and database; resolves once it exited (killed after a timeout). */
  stop(): Promise<void>;
  /** Registers a listener for an exit nobody asked for (a crash). */
  onUnexpectedExit(listener: (code: number) => void): void;
}

/** Timing and logging of a launch. */
export interface LaunchOptions {
  /** How long opening and migrating the database may take before the start counts as failed. */
  readyTimeoutMs?: number;
  /** How long a stopping child may take to finish requests and close the database. */
  stopTimeoutMs?: number;
  /** Unexpected server errors reported by the child. */
  onLog?: (message: string, detail: string) => void;
}

const DEFAULT_READY_TIMEOUT_MS = 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 5_000;

/**
 * Forks a server child, sends it `start`, and resolves when it reports `ready`; rejects with a
 * ServerStartError when it reports `start-failed`, exits first, or stays silent past the timeout
 * (the child is killed in every failure case, so no server is left behind).
 */
export function launchServerChild(
  fork: ForkServerChild,
  options: ServerChildOptions,
  launch: LaunchOptions = {},
): Promise<ServerChild> {
  const readyTimeoutMs = launch.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const stopTimeoutMs = launch.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  const child = fork();
  let phase: 'starting' | 'running' | 'stopping' | 'exited' = 'starting';
  const crashListeners: ((code: number) => void)[] = [];
  const exitWaiters: (() => void)[] = [];
  let stopping: Promise<void> | undefined;

  return new Promise<ServerChild>((resolve, reject) => {
    const fail = (error: ServerStartError) => {
      clearTimeout(readyTimer);
      phase = 'stopping';
      child.kill();
      reject(error);
    };
    const readyTimer = setTimeout(() => {
      if (phase === 'starting') {
        fail(
          new ServerStartError(null, `The Quire server did not start within ${Math.round(readyTimeoutMs / 1000)} s.`),
        );
      }
    }, readyTimeoutMs);

    child.on('message', (raw) => {
      const message = parseChildMessage(raw);
      if (!message) return;
      if (message.type === 'log') launch.onLog?.(message.message, message.detail);
      else if (message.type === 'start-failed' && phase === 'starting') {
        fail(new ServerStartError(message.code, message.explanation));
      } else if (message.type === 'ready' && phase === 'starting') {
        clearTimeout(readyTimer);
        phase = 'running';
        resolve({
          origin: message.origin,
          port: message.port,
          dbFile: message.dbFile,
          stop() {
            stopping ??= new Promise<void>((done) => {
              if (phase === 'exited') return done();
              phase = 'stopping';
              exitWaiters.push(done);
              const killTimer = setTimeout(() => child.kill(), stopTimeoutMs);
              exitWaiters.push(() => clearTimeout(killTimer));
              child.postMessage({ type: 'stop' });
            });
            return stopping;
          },
          onUnexpectedExit(listener) {
            crashListeners.push(listener);
          },
        });
      } else if (message.type === 'stopped' && phase === 'stopping') {
        // Server and database are closed: nothing is lost by ending the process now.
        child.kill();
      }
    });

    child.on('exit', (code) => {
      const was = phase;
      phase = 'exited';
      clearTimeout(readyTimer);
      for (const done of exitWaiters.splice(0)) done();
      if (was === 'starting') {
        reject(new ServerStartError(null, `The Quire server stopped while starting (exit code ${code}).`));
      } else if (was === 'running') {
        for (const listener of crashListeners) listener(code);
      }
    });

    child.postMessage({ type: 'start', options });
  });
}
