import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ChildServer, spawnServer } from '../test-support/child-server.js';
import { quireDatabase, withRecursiveView } from '../test-support/hostile-databases.js';
import { STOP_GRACE_MS } from './server-supervisor.js';

/** The server process: the supervisor's child (Linux /proc), or the process itself without one. */
function serverProcess(server: ChildServer): number {
  const supervisor = server.child.pid as number;
  return childrenOf(supervisor)[0] ?? supervisor;
}

/** Processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name (which is in parentheses and may hold spaces): state, ppid.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) found.push(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return found;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return check();
}

/** Resolves with the supervisor's exit code and how long it took from now. */
function exited(server: ChildServer): Promise<{ code: number | null; ms: number }> {
  const start = Date.now();
  return new Promise((resolve) => {
    if (!server.alive()) resolve({ code: server.child.exitCode, ms: 0 });
    server.child.once('exit', (code) => resolve({ code, ms: Date.now() - start }));
  });
}

/** Starts an endless query on the server and checks that it no longer answers anything. */
async function blockEventLoop(server: ChildServer): Promise<void> {
  void fetch(`${server.api}/cms/categories`).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const probe = await fetch(`${server.api}/cms/news`, { signal: AbortSignal.timeout(1_000) }).then(
    (response) => response.status,
    (error: Error) => error.name,
  );
  expect(probe).toBe('TimeoutError');
}

describe('quire serve under its supervisor', () => {
  let dir: string;
  let server: ChildServer | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-supervisor-'));
  });
  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = null;
    rmSync(dir, { recursive: true, force: true });
  });

  it('stops within the grace period on SIGTERM while a query blocks the server, and says so in one line', async () => {
    server = await spawnServer(await withRecursiveView(join(dir, 'content.sqlite')), ['--no-backups'], 'built');
    const serverPid = serverProcess(server);
    await blockEventLoop(server);

    const exit = exited(server);
    server.child.kill('SIGTERM');
    const { code, ms } = await exit;
    expect(ms).toBeLessThan(STOP_GRACE_MS + 2_000);
    expect(code).toBe(1);
    expect(server.stderr().trim().split('\n')).toEqual([
      `quire: the server was killed because it had not stopped ${STOP_GRACE_MS / 1000} s after SIGTERM; acknowledged writes are safe on disk.`,
    ]);
    expect(await waitUntil(() => !running(serverPid), 2_000)).toBe(true);
  });

  it('kills at once on a second SIGINT (a second Ctrl+C)', async () => {
    server = await spawnServer(await withRecursiveView(join(dir, 'content.sqlite')), ['--no-backups'], 'built');
    await blockEventLoop(server);
    const exit = exited(server);
    server.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGINT');
    const { code, ms } = await exit;
    expect(ms).toBeLessThan(1_500);
    expect(code).toBe(1);
    expect(server.stderr()).toMatch(/^quire: the server was killed because a second SIGINT; /);
  });

  it('stops cleanly on SIGTERM when nothing blocks it: exit code 0, nothing on stderr, no server left', async () => {
    server = await spawnServer(await quireDatabase(join(dir, 'content.sqlite')), ['--no-backups'], 'built');
    const serverPid = serverProcess(server);
    expect((await fetch(`${server.api}/cms/news`)).status).toBe(200);
    const exit = exited(server);
    server.child.kill('SIGTERM');
    const { code, ms } = await exit;
    expect(code).toBe(0);
    expect(ms).toBeLessThan(STOP_GRACE_MS);
    expect(server.stderr()).toBe('');
    expect(running(serverPid)).toBe(false);
  });

  it('the server stops on its own when its supervisor is killed', async () => {
    server = await spawnServer(await quireDatabase(join(dir, 'content.sqlite')), ['--no-backups'], 'built');
    const serverPid = serverProcess(server);
    const exit = exited(server);
    server.child.kill('SIGKILL');
    await exit;
    expect(await waitUntil(() => !running(serverPid), STOP_GRACE_MS)).toBe(true);
    await expect(fetch(`${server.api}/cms/news`)).rejects.toThrow();
  });
});
