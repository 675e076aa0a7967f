import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';

/**
 * WAL checkpoints of a server's database in a worker thread, on a connection of its own.
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past 1,000 pages, on the
 * writing connection: better-sqlite3 is synchronous, so the server's only thread copies those pages
 * into the database file and waits for its fsync while no request moves. This worker checkpoints
 * every INTERVAL_MS instead; a passive checkpoint waits for no reader or writer, so the server's
 * writes go on meanwhile, and durability is unchanged: every COMMIT still syncs the WAL
 * (`synchronous=FULL`); a checkpoint only moves committed pages into the database file.
 *
 * The server's connection keeps an automatic checkpoint at SAFETY_NET_PAGES: under a long burst of
 * writes the worker's checkpoints never catch up with the WAL's end, and SQLite starts the WAL over
 * only when one has. If the worker cannot start or stops on its own, the connection goes back to
 * SQLite's default, as if there were no worker.
 */

/** WAL pages past which the server's own connection checkpoints while the worker runs. */
export const SAFETY_NET_PAGES = 10_000;
/** SQLite's default automatic checkpoint, in WAL pages. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;
/** How often the worker checkpoints (a checkpoint with nothing to copy only reads the WAL index). */
const INTERVAL_MS = 50;
/** How long `started` waits for the worker to say it runs (it starts in 30-60 ms). */
const START_WAIT_MS = 5_000;
/** How long a stopping worker may take to close its connection before it is terminated. */
const STOP_MS = 2_000;

/** The worker (CommonJS, evaluated): opens the file, checkpoints on a timer, closes when told. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {});
db.pragma('busy_timeout = 0');
db.pragma('synchronous = FULL');
// A checkpoint copies WAL frames into the file; it needs no page cache to speak of.
db.pragma('cache_size = -256');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy (the server's own checkpoint runs): the next turn checkpoints.
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
parentPort.postMessage('ready');
`;

/** Where to open, and how. */
export interface CheckpointerOptions {
  /** The better-sqlite3 addon for another runtime (see SqliteOptions.nativeBinding). */
  nativeBinding?: string;
  /** The better-sqlite3 module to load in the worker (tests give a missing one). */
  module?: string;
  /** Called once if the worker fails; the connection is then back to SQLite's own checkpoints. */
  onFailure?: (error: unknown) => void;
}

/** A running checkpoint worker. */
export interface Checkpointer {
  /** Resolves once the worker has started (true) or could not (false). */
  readonly started: Promise<boolean>;
  /** Stops the worker and gives checkpoints back to `raw`. */
  stop(): Promise<void>;
}

/** Starts checkpointing `file` (open on `raw`, in WAL mode) in a worker; see the module comment. */
export function startCheckpointer(
  raw: Database.Database,
  file: string,
  options: CheckpointerOptions = {},
): Checkpointer {
  const module = options.module ?? createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { module, file, nativeBinding: options.nativeBinding, intervalMs: INTERVAL_MS },
    // It allocates almost nothing; V8's default young generation would still be reserved for it.
    resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 32 },
  });
  let stopping = false;
  let ended = false;
  const giveBack = () => {
    if (raw.open) raw.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
  };
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const started = new Promise<boolean>((resolve) => {
    // A worker that neither starts nor fails in this time is not waited for (it may still start).
    setTimeout(() => resolve(false), START_WAIT_MS).unref();
    worker.once('message', () => {
      if (!stopping && raw.open) raw.pragma(`wal_autocheckpoint = ${SAFETY_NET_PAGES}`);
      resolve(true);
    });
    worker.once('error', (error) => {
      giveBack();
      if (!stopping) options.onFailure?.(error);
      resolve(false);
    });
    worker.once('exit', () => {
      ended = true;
      giveBack();
      resolve(false);
    });
  });
  // The worker must not keep a stopping process alive.
  worker.unref();
  return {
    started,
    async stop() {
      if (stopping) return exited;
      stopping = true;
      giveBack();
      if (ended) return;
      worker.postMessage('stop');
      const timer = setTimeout(() => void worker.terminate(), STOP_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}
