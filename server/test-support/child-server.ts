import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { packageRoot } from '../config/package-root.js';

/** A real `quire serve` process on a free 127.0.0.1 port (crash, load and fuzz tests). */
export interface ChildServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  api: string;
  child: ChildProcess;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Sends a signal and resolves when the process has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/**
 * Spawns the server from the TypeScript sources (node with tsx, as `npm run serve` would run the
 * build) over `dbFile`, and resolves once it prints its address.
 */
export async function spawnServer(dbFile: string, extraArgs: string[] = []): Promise<ChildServer> {
  const root = packageRoot();
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(root, 'server', 'cli.ts'),
      'serve',
      '--db',
      dbFile,
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--editor',
      'stress',
      ...extraArgs,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } },
  );
  let stdout = '';
  let stderr = '';
  let exited = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      resolve();
    }),
  );
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s: ${stderr}`)), 30_000);
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/[^\s/]+)\/api/.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting: ${stderr}`));
    });
  });
  return {
    origin,
    api: `${origin}/api`,
    child,
    stderr: () => stderr,
    alive: () => !exited,
    async kill(signal) {
      if (!exited) child.kill(signal);
      await exit;
    },
  };
}
