import { EventEmitter } from 'node:events';
import { type RunningServer, type ServerOptions, startServer } from '../../server/server.js';
import type { UtilityChild } from '../main/server-launcher.js';
import { runServerChild } from '../server-child/server-child.js';
import type { ChildMessage, ParentMessage } from '../server-child/server-child-protocol.js';

/** Structured clone, as Electron's message ports copy messages between processes. */
function copy<T>(value: T): T {
  return structuredClone(value);
}

/**
 * A stand-in for `utilityProcess.fork` of the server child entry: the real child code
 * (`runServerChild`) and the real server, in this process, talking over an emulated parent port
 * with the same asynchronous, copied delivery. Everything but the process boundary is real.
 */
export class InProcessServerChild extends EventEmitter implements UtilityChild {
  readonly received: ChildMessage[] = [];
  readonly sent: ParentMessage[] = [];
  exited: number | null = null;
  private readonly port = new EventEmitter();
  private server: RunningServer | null = null;

  constructor(start: (options: ServerOptions) => Promise<RunningServer> = startServer) {
    super();
    runServerChild(
      {
        on: (event, listener) => this.port.on(event, listener),
        postMessage: (message) => {
          if (this.exited !== null) return;
          const copied = copy(message);
          this.received.push(copied);
          setImmediate(() => this.emit('message', copied));
        },
      },
      {
        startServer: async (options) => {
          this.server = await start({ ...options, backups: false });
          return this.server;
        },
        exit: (code) => this.exit(code),
      },
    );
  }

  postMessage(message: ParentMessage): void {
    this.sent.push(copy(message));
    setImmediate(() => this.port.emit('message', { data: copy(message) }));
  }

  /** Like a killed process: the server stops answering at once (no graceful close). */
  kill(): boolean {
    if (this.exited !== null) return false;
    void this.server?.close();
    this.exit(-1);
    return true;
  }

  private exit(code: number): void {
    if (this.exited !== null) return;
    this.exited = code;
    setImmediate(() => this.emit('exit', code));
  }
}
