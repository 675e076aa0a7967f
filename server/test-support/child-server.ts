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
  /**
   * Sends a signal and resolves when the process has exited. SIGKILL kills the supervisor and the
   * server together; other signals go to the supervisor, which forwards them.
   */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** What a child server serves: a SQLite file, or a PostgreSQL database by its URL (`--database`). */
export type ChildDatabase = string | { postgresUrl: string };

/**
 * Which `quire` a child server runs: the TypeScript sources under tsx, or the build
 * (dist/server/cli.js, as `npm run serve` runs it; needs `node scripts/build.mjs`, which npm test
 * runs first), which starts in a fraction of the time.
 */
export type ChildEntry = 'sources' | 'built';

/** Spawns `quire serve` from `entry` over `database`, and resolves once it prints its address. */
export async function spawnServer(
  database: ChildDatabase,
  extraArgs: string[] = [],
  entry: ChildEntry = 'sources',
): Promise<ChildServer> {
  const root = packageRoot();
  const child = spawn(
    process.execPath,
    [
      ...(entry === 'built'
        ? [join(root, 'dist', 'server', 'cli.js')]
        : ['--import', 'tsx', join(root, 'server', 'cli.ts')]),
      'serve',
      // A PostgreSQL server's backups would go to the app-data folder, outside the test's.
      ...(typeof database === 'string' ? ['--db', database] : ['--database', database.postgresUrl, '--no-backups']),
      '--port',
      '0',
      '--host',
      '127.0.0.1',
      '--editor',
      'stress',
      ...extraArgs,
    ],
    // Its own process group: `quire serve` is a supervisor with the server as its child, and a
    // crash drill's SIGKILL must hit both at once, as a machine's crash would.
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' }, detached: true },
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
      const group = signal === 'SIGKILL' && process.platform !== 'win32';
      if (!exited) {
        if (group) process.kill(-(child.pid as number), signal);
        else child.kill(signal);
      }
      await exit;
      // The server (the supervisor's child) may be reaped a moment after its supervisor.
      if (group) await groupGone(child.pid as number);
    },
  };
}

/** Resolves once no process of the group is left (or after 5 s). */
async function groupGone(group: number): Promise<void> {
  for (let attempt = 0; attempt < 250; attempt++) {
    try {
      process.kill(-group, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
