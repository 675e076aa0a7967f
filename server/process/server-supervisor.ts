import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `quire serve` runs the server in a child process under this supervisor. better-sqlite3 runs
 * each query synchronously on the server's only thread, so while a query runs (a huge sort, a
 * hostile recursive view) no JavaScript signal handler can: the server alone would ignore SIGTERM
 * until the query ends, which may be never. The supervisor does no database work, so it always
 * hears the signal: it forwards SIGTERM/SIGINT (the server then finishes requests in flight and
 * closes the database) and kills the server if it has not exited after a grace period. A kill is
 * safe for the data: every acknowledged write is already durable (WAL, synchronous=FULL), and a
 * cut-off upload or backup leaves only temporary files that the next start removes.
 */

/** How long a stopping server may take (requests in flight get 2 s of it) before it is killed. */
export const STOP_GRACE_MS = 5_000;

/** Set in the environment of the supervised server process, and only there. */
export const SUPERVISED_ENV = 'QUIRE_SUPERVISED';

/** Whether this process is the server a supervisor started. */
export function isSupervisedServer(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SUPERVISED_ENV] === '1';
}

/** How to supervise. */
export interface SupervisorOptions {
  /** Arguments after the Node executable (and its own flags, e.g. `--import tsx`): script, command, options. */
  args: string[];
  /** Grace period after the first signal (default STOP_GRACE_MS). */
  graceMs?: number;
  /** Where the one-line notice of a kill goes. */
  warn?: (line: string) => void;
}

const FORWARDED = ['SIGINT', 'SIGTERM'] as const;

/**
 * The server's young generation, in MB per semi-space (V8's default on 64-bit is 16). Reads
 * allocate short-lived objects quickly, so V8 grows the young generation to its limit and keeps
 * it: measured at 1M rows after the in-memory search index was built, the server's RSS was
 * 252-265 MB with the default and 223-232 MB with 2-4 MB, with gets by id at 20k rows the same
 * within noise (4,869-6,256 req/s against 4,892-6,468, runs interleaved). A flag the user gives
 * (on the command line or in NODE_OPTIONS) wins.
 */
export const SERVER_SEMI_SPACE_MB = 4;

/** Node's own flags for the server process: this process's, plus the young generation's size. */
export function serverExecArgv(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given = [...execArgv, env.NODE_OPTIONS ?? ''].some((flag) => /--max-semi-space-size/.test(flag));
  return given ? [...execArgv] : [...execArgv, `--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`];
}

/**
 * Starts the server process with the same Node and flags (see `serverExecArgv`), sharing this
 * process's terminal, and resolves with the exit code to end with: the server's own, or 1 when it
 * had to be killed (or was killed by someone else). A second signal kills at once (a second Ctrl+C means "now").
 */
export function superviseServer(options: SupervisorOptions): Promise<number> {
  const graceMs = options.graceMs ?? STOP_GRACE_MS;
  const warn = options.warn ?? ((line: string) => console.error(line));
  const child: ChildProcess = spawn(
    process.execPath,
    [...serverExecArgv(process.execArgv, process.env), ...options.args],
    {
      // The IPC channel is how the server notices that its supervisor is gone (see watchSupervisor).
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, [SUPERVISED_ENV]: '1' },
    },
  );

  return new Promise<number>((resolve) => {
    let firstSignal: NodeJS.Signals | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let killedBecause: string | null = null;

    const kill = (reason: string) => {
      if (killedBecause !== null) return;
      killedBecause = reason;
      child.kill('SIGKILL');
    };
    const onSignal = (signal: NodeJS.Signals) => {
      if (firstSignal !== null) {
        kill(`a second ${signal}`);
        return;
      }
      firstSignal = signal;
      // A terminal's Ctrl+C reaches the server directly too; it treats the repeat as the same request.
      child.kill(signal);
      killTimer = setTimeout(() => kill(`it had not stopped ${graceMs / 1000} s after ${signal}`), graceMs);
    };
    const handlers = FORWARDED.map((signal) => [signal, () => onSignal(signal)] as const);
    for (const [signal, handler] of handlers) process.on(signal, handler);
    const finish = (code: number) => {
      clearTimeout(killTimer);
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve(code);
    };

    child.once('error', (error) => {
      warn(`quire: could not start the server process: ${error.message}`);
      finish(1);
    });
    child.once('exit', (code, signal) => {
      if (killedBecause !== null) {
        warn(`quire: the server was killed because ${killedBecause}; acknowledged writes are safe on disk.`);
        finish(1);
      } else {
        finish(code ?? (signal ? 1 : 0));
      }
    });
  });
}

/**
 * In the supervised server: stop when the supervisor goes away (killed with SIGKILL, say), so no
 * server is left running with nobody to stop it. The channel must not keep the process alive.
 */
export function watchSupervisor(stop: (reason: string) => void): void {
  if (!process.channel) return;
  process.once('disconnect', () => stop('its supervisor exited'));
  process.channel.unref();
}
