import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChildServer, spawnServer } from '../test-support/child-server.js';
import { SERVER_SEMI_SPACE_MB, serverExecArgv } from './server-supervisor.js';

describe('serverExecArgv', () => {
  it("keeps the supervisor's flags and caps the server's young generation", () => {
    expect(serverExecArgv(['--import', 'tsx'], {})).toEqual([
      '--import',
      'tsx',
      `--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`,
    ]);
  });

  it('leaves a size the user gives, on the command line or in NODE_OPTIONS', () => {
    expect(serverExecArgv(['--max-semi-space-size=32'], {})).toEqual(['--max-semi-space-size=32']);
    expect(serverExecArgv([], { NODE_OPTIONS: '--max-semi-space-size 16' })).toEqual([]);
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

  it('runs the server process with the capped young generation, the supervisor without', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quire-exec-argv-'));
    server = await spawnServer(join(dir, 'content.sqlite'), ['--no-backups']);
    const supervisor = server.child.pid as number;
    const [serverPid] = readFileSync(`/proc/${supervisor}/task/${supervisor}/children`, 'utf8').trim().split(/\s+/);
    const argsOf = (pid: number | string) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(argsOf(serverPid)).toContain(`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`);
    expect(argsOf(supervisor).some((arg) => arg.startsWith('--max-semi-space-size'))).toBe(false);
    expect((await fetch(`${server.api}/cms-content`)).status).toBe(200);
  });
});
