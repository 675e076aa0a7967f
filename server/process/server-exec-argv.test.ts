import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChildServer, spawnServer } from '../test-support/child-server.js';
import {
  SERVER_HEAP_GROWING_PERCENT,
  SERVER_MALLOC_MMAP_THRESHOLD,
  SERVER_SEMI_SPACE_MB,
  serverEnv,
  serverExecArgv,
} from './server-supervisor.js';

describe('serverExecArgv', () => {
  it("keeps the supervisor's flags and caps the server's young generation and heap growth", () => {
    expect(serverExecArgv(['--import', 'tsx'], {})).toEqual([
      '--import',
      'tsx',
      `--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`,
      `--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`,
    ]);
  });

  it('leaves a flag the user gives, on the command line or in NODE_OPTIONS, in either spelling', () => {
    const growth = `--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`;
    expect(serverExecArgv(['--max-semi-space-size=32'], {})).toEqual(['--max-semi-space-size=32', growth]);
    expect(serverExecArgv([], { NODE_OPTIONS: '--max-semi-space-size 16' })).toEqual([growth]);
    expect(serverExecArgv(['--heap_growing_percent=10'], {})).toEqual([
      '--heap_growing_percent=10',
      `--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`,
    ]);
  });
});

describe('serverEnv', () => {
  it("marks the server as supervised and fixes malloc's mapping threshold unless the user set one", () => {
    expect(serverEnv({ PATH: '/bin' })).toEqual({
      PATH: '/bin',
      MALLOC_MMAP_THRESHOLD_: String(SERVER_MALLOC_MMAP_THRESHOLD),
      QUIRE_SUPERVISED: '1',
    });
    expect(serverEnv({ MALLOC_MMAP_THRESHOLD_: '1024' }).MALLOC_MMAP_THRESHOLD_).toBe('1024');
  });
});

describe('quire serve', () => {
  let dir: string | null = null;
  let server: ChildServer | null = null;
  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = null;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs the server process with its memory settings, the supervisor without', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-exec-argv-'));
    server = await spawnServer(join(dir, 'content.sqlite'), ['--no-backups'], 'built');
    const supervisor = server.child.pid as number;
    const [serverPid] = readFileSync(`/proc/${supervisor}/task/${supervisor}/children`, 'utf8').trim().split(/\s+/);
    const argsOf = (pid: number | string) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argsOf(serverPid)).toContain(`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`);
    expect(argsOf(serverPid)).toContain(`--heap-growing-percent=${SERVER_HEAP_GROWING_PERCENT}`);
    expect(argsOf(supervisor).some((arg) => arg.startsWith('--max-semi-space-size'))).toBe(false);
    const environment = readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
    expect(environment).toContain(`MALLOC_MMAP_THRESHOLD_=${SERVER_MALLOC_MMAP_THRESHOLD}`);
    expect((await fetch(`${server.api}/cms-content`)).status).toBe(200);
  });
});
