import { execFile as execFileCallback, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { PostgresTarget } from '../db/postgres/postgres-url.js';
import { isCi } from './postgres.js';

/**
 * A PostgreSQL server of a test's own, made with initdb in a temporary folder and run with pg_ctl
 * on a free 127.0.0.1 port, so the test may really stop it (`pg_ctl stop -m immediate`) and start
 * it again. The machine's shared server is never touched: every other suite uses it meanwhile.
 *
 * initdb and postgres refuse to run as root, so as root they run as the `postgres` OS user
 * (`runuser`), which then owns the folder. Without the server binaries (a laptop with only a
 * client, or a remote QUIRE_TEST_PG_URL) suites skip, saying why; on CI with the local server
 * (CI=true, no QUIRE_TEST_PG_URL) the binaries are there, and a missing one fails the suite.
 */

const execFile = promisify(execFileCallback);

/** Whether a private server can be made here: the binaries' folder, or why not. */
export type PrivatePostgresSupport = { available: true; binDir: string } | { available: false; reason: string };

/** A running private server: trust authentication, user `postgres`, database `postgres`. */
export interface PrivatePostgres {
  /** Its admin target (database `postgres`); make databases with `runAdmin`. */
  target: PostgresTarget;
  port: number;
  /** Stops it: `immediate` ends every backend at once, as a crash would (recovery runs at the next start). */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  /** Starts it again on the same port and folder, resolving once it accepts connections. */
  start(): Promise<void>;
  /** The server's log so far (for a failure's message). */
  log(): string;
  /** Stops it (immediately) and removes its folder. */
  dispose(): Promise<void>;
}

/** Finds initdb and pg_ctl: the newest Debian `/usr/lib/postgresql/N/bin` (N >= 15), else the PATH. */
export function privatePostgresSupport(env: NodeJS.ProcessEnv = process.env): PrivatePostgresSupport {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name) && Number(name) >= 15)
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const binDir = join(root, version, 'bin');
    if (existsSync(join(binDir, 'initdb')) && existsSync(join(binDir, 'pg_ctl'))) return { available: true, binDir };
  }
  for (const dir of (env.PATH ?? '').split(':').filter(Boolean)) {
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return { available: true, binDir: dir };
  }
  const reason = 'no PostgreSQL server binaries (initdb, pg_ctl) to start a private server with';
  if (isCi(env) && !env.QUIRE_TEST_PG_URL?.trim()) {
    throw new Error(`${reason}; CI (CI=true) installs them with the local server (.ci/start-postgres)`);
  }
  return { available: false, reason };
}

/** Makes and starts a private server; dispose it when done. */
export async function startPrivatePostgres(binDir: string): Promise<PrivatePostgres> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'quire-private-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const logFile = join(dir, 'server.log');
  const run = (tool: string, args: string[]) =>
    asRoot
      ? execFile('runuser', ['-u', 'postgres', '--', join(binDir, tool), ...args])
      : execFile(join(binDir, tool), args);
  const port = await freePort();
  // fsync off: a stopped server loses nothing the operating system already holds, and only a
  // machine crash would need it. Few connections and little memory: the machine is shared.
  const serverOptions = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c max_connections=40',
    '-c shared_buffers=16MB',
  ].join(' ');
  let running = false;
  const start = async () => {
    await run('pg_ctl', ['-D', data, '-l', logFile, '-o', serverOptions, '-w', '-t', '60', 'start']);
    running = true;
  };
  const stop = async (mode: 'immediate' | 'fast' = 'immediate') => {
    if (!running) return;
    await run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
    running = false;
  };
  // A test run that ends without disposing (a crash, a killed worker) must not leave a server behind.
  const stopAtExit = () => {
    if (!running) return;
    try {
      const args = ['-D', data, '-m', 'immediate', 'stop'];
      if (asRoot)
        execFileSync('runuser', ['-u', 'postgres', '--', join(binDir, 'pg_ctl'), ...args], { stdio: 'ignore' });
      else execFileSync(join(binDir, 'pg_ctl'), args, { stdio: 'ignore' });
    } catch {
      // already gone
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopAtExit);
  try {
    await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
    await start();
  } catch (error) {
    process.removeListener('exit', stopAtExit);
    stopAtExit();
    throw new Error(`Could not start a private PostgreSQL: ${(error as Error).message}`);
  }
  return {
    target: { host: '127.0.0.1', port, database: 'postgres', user: 'postgres', sslMode: 'disable' },
    port,
    stop,
    start,
    log: () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''),
    async dispose() {
      process.removeListener('exit', stopAtExit);
      try {
        await stop('immediate');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A port nothing listens on now (the server takes it a moment later, and keeps it across restarts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
