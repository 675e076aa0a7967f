import { type ChildProcess, spawn } from 'node:child_process';

/**
 * `quire serve` runs the server in a child process under this supervisor. better-sqlite3 runs each
 * query synchronously on the server's only thread, so while one runs (a huge sort, a hostile
 * recursive view) no signal handler can, and the server alone could ignore SIGTERM forever. The
 * supervisor does no database work, so it always hears the signal: it forwards SIGTERM/SIGINT and
 * kills the server if it has not exited after a grace period. A kill is safe for the data: every
 * acknowledged write is durable (WAL, synchronous=FULL), and a cut-off upload or backup leaves only
 * temporary files that the next start removes.
 */

/** How long a stopping server may take (requests in flight get 2 s of it) before it is killed. */
export const STOP_GRACE_MS = 5_000;

/** Set in the environment of the supervised server process, and only there. */
export const SUPERVISED_ENV = 'QUIRE_SUPERVISED';

/** Whether this process is the server a supervisor started. */
export function isSupervisedServer(env: NodeJS.ProcessEnv): boolean {
  return env[SUPERVISED_ENV] === '1';
}

/** How to supervise. */
export interface SupervisorOptions {
  /** Arguments after the Node executable (and its own flags, e.g. `--import tsx`): script, command, options. */
  args: string[];
  /** This process's environment, which the server process gets (see `serverEnv`). */
  env: NodeJS.ProcessEnv;
  /** Grace period after the first signal (default STOP_GRACE_MS). */
  graceMs?: number;
  /** Where the one-line notice of a kill goes. */
  warn?: (line: string) => void;
}

const FORWARDED = ['SIGINT', 'SIGTERM'] as const;

/**
 * The server's young generation, in MB per semi-space (V8's default on 64-bit is 16). Reads
 * allocate short-lived objects quickly, so V8 grows the young generation to its limit and keeps
 * it; a small one lowers the resident memory and leaves the rate of gets within noise.
 */
export const SERVER_SEMI_SPACE_MB = 4;

/**
 * How much V8 lets the old generation grow past what survived the last full GC before the next,
 * in percent (its default picks a factor of up to 4 from how fast GC ran). The live heap is small
 * beside the garbage a steady load makes (with the ArrayBuffers it holds, search results'
 * bitmaps), so under the default that garbage sets the peak RSS; a lower factor caps the peak
 * for a small share of throughput.
 */
export const SERVER_HEAP_GROWING_PERCENT = 50;

/** Node flags the server process gets unless the user gives the same flag (command line or NODE_OPTIONS). */
const SERVER_FLAGS: readonly (readonly [name: string, value: number])[] = [
  ['--max-semi-space-size', SERVER_SEMI_SPACE_MB],
  ['--heap-growing-percent', SERVER_HEAP_GROWING_PERCENT],
];

/** Node's own flags for the server process: this process's, plus SERVER_FLAGS the user left alone. */
export function serverExecArgv(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given = [...execArgv, env.NODE_OPTIONS ?? ''];
  // V8 reads `--a-b` and `--a_b` alike.
  const mentions = (name: string) => given.some((flag) => flag.replaceAll('_', '-').includes(name));
  return [...execArgv, ...SERVER_FLAGS.filter(([name]) => !mentions(name)).map(([name, value]) => `${name}=${value}`)];
}

/**
 * glibc's malloc serves allocations from this size up (bytes) with their own mappings, returned to
 * the system when freed. Its default starts at 128 KiB and rises to the largest block freed so
 * far, so after the search index's build (text blocks and posting arrays grown by doubling, then
 * trimmed) large blocks would come from the heap, and freed ones would stay resident between live
 * ones. A fixed threshold keeps them out of the heap at no cost to builds or requests. Other
 * systems' allocators ignore the variable.
 */
export const SERVER_MALLOC_MMAP_THRESHOLD = 65_536;

/** The server process's environment: this one's, marked as supervised, with SERVER_MALLOC_MMAP_THRESHOLD unless set. */
export function serverEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { MALLOC_MMAP_THRESHOLD_: String(SERVER_MALLOC_MMAP_THRESHOLD), ...env, [SUPERVISED_ENV]: '1' };
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
    [...serverExecArgv(process.execArgv, options.env), ...options.args],
    {
      // The IPC channel is how the server notices that its supervisor is gone (see watchSupervisor).
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      env: serverEnv(options.env),
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
