import { type ChildProcess, spawn } from 'node:child_process';

/** A Node child process, its output so far (stdout and stderr), and a way to wait for a line. */
export interface WatchedProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Resolves with the first match of `pattern` in the output; rejects on exit or after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/** Runs `node ...args` in `cwd` with `env`, watching its output. */
export function spawnWatched(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; defaultTimeoutMs: number },
): WatchedProcess {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, timeoutMs = options.defaultTimeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) {
            clearTimeout(timer);
            listeners.delete(check);
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${output}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then((code) => {
          if (!output.match(pattern)) {
            clearTimeout(timer);
            reject(new Error(`the process exited (${code}) before printing ${pattern}; output:\n${output}`));
          }
        });
        check();
      });
    },
  };
}
