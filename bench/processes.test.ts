import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cpuMeter,
  cpuMsOf,
  freePort,
  nodeStartLine,
  postgresPids,
  startScript,
  startServer,
  stop,
} from './processes.mjs';

/** The bench's line on how long a bare Node process takes to start (bench/processes.mjs). */
describe('nodeStartLine', () => {
  it('gives the time of `node -e 0`, and without NODE_EXTRA_CA_CERTS when it is set', () => {
    const { NODE_EXTRA_CA_CERTS: _certs, ...plain } = process.env;
    expect(nodeStartLine(plain, 1)).toMatch(/^Node start: `node -e 0` \d+ ms\.$/);
    const line = nodeStartLine({ ...plain, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' }, 1);
    expect(line).toMatch(/^Node start: `node -e 0` \d+ ms with NODE_EXTRA_CA_CERTS set, .*, \d+ ms without;/);
  });
});

describe('cpuMeter', () => {
  it("counts a busy process's CPU time, this process's, and the machine's busy cores", async () => {
    const busy = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end);']);
    const stop = cpuMeter({ busy: () => (busy.pid === undefined ? [] : [busy.pid]) });
    const spin = Date.now() + 100;
    while (Date.now() < spin); // this process: the load generator's place
    // Read while the child still runs: once it is gone its time cannot be read.
    await new Promise((done) => setTimeout(done, 250));
    const used = stop();
    await new Promise((done) => busy.once('exit', done));
    expect(used.groups.busy).toBeGreaterThan(100);
    expect(used.load).toBeGreaterThan(50);
    expect(used.busyCores).toBeGreaterThan(0.5);
    expect(used.cores).toBeGreaterThanOrEqual(1);
  });

  it("finds PostgreSQL by its processes' name, and reads nothing of a process that is gone", () => {
    for (const pid of postgresPids()) expect(readFileSync(`/proc/${pid}/comm`, 'utf8').trim()).toBe('postgres');
    expect(cpuMsOf(2 ** 22 + 1)).toBeNull();
  });
});

describe('startServer', () => {
  it('keeps what the server writes to stderr, for the log once it has stopped', async () => {
    const port = await freePort();
    const script = `process.stderr.write('The search index was not saved: because\\n');
      require('node:http').createServer((_, res) => res.end('ok')).listen(${port}, '127.0.0.1');`;
    const server = await startServer('said', process.execPath, ['-e', script], `http://127.0.0.1:${port}/`, 10_000);
    await stop(server.child);
    expect(server.stderr()).toContain('The search index was not saved: because');
  });
});

describe('startScript', () => {
  it('starts a script on a free port it is given, answers at the base URL, and stops', async () => {
    const script = `require('node:http').createServer((_, res) => res.end('ok')).listen(Number(process.argv[1]), '127.0.0.1');`;
    const server = await startScript('echo', '-e', (port: number) => [script, String(port)], '/', 10_000);
    expect(server.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${server.base}/`)).text()).toBe('ok');
    await server.stop();
    expect(server.child.exitCode !== null || server.child.signalCode !== null).toBe(true);
  });
});
