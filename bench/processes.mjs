// Child processes of the benchmark: commands run to completion, servers started and stopped, their memory.
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';

export const log = (line) => process.stderr.write(`${line}\n`);
export const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Runs a command to its end; resolves with its output (stdout and stderr), rejects with it (`error.output`) on a non-zero exit. */
export function run(command, commandArgs, cwd) {
  return new Promise((done, fail) => {
    const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    child.once('error', fail);
    child.once('exit', (code) => {
      if (code === 0) return done(output);
      fail(Object.assign(new Error(`${command} ${commandArgs.join(' ')}: ${output.trim()}`), { output }));
    });
  });
}

/**
 * Writes the page cache's dirty pages out (`sync`) before a measurement: loading a floor's rows or
 * copying a database leaves hundreds of MB for the kernel to write back, which otherwise competes
 * with the server measured next and slows its start.
 */
export function settleDisk() {
  return run('sync', [], process.cwd()).catch(() => {});
}

/** Starts a server process and waits for its first successful answer to `probe`. */
export async function startServer(name, command, commandArgs, probe, timeoutMs, cwd) {
  const started = performance.now();
  const child = spawn(command, commandArgs, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.on('data', (data) => (errors += data));
  let exited = false;
  child.once('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`${name} exited: ${errors}`);
    try {
      const response = await fetch(probe);
      if (response.ok) {
        await response.arrayBuffer();
        // `stderr()`: what it has written there so far (a server's messages, such as a search index not saved).
        return { child, startMs: performance.now() - started, spawnedAt: started, stderr: () => errors };
      }
    } catch {}
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer within ${timeoutMs} ms: ${errors}`);
    }
    await sleep(5);
  }
}

/**
 * Starts a Node script serving on a free 127.0.0.1 port (`argsFor(port)`: its arguments after the
 * script) and waits until `probePath` answers: its `base` URL, its process `child` and `stop()`.
 */
export async function startScript(name, script, argsFor, probePath, timeoutMs, cwd) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const args = [script, ...argsFor(port)];
  const { child } = await startServer(name, process.execPath, args, `${base}${probePath}`, timeoutMs, cwd);
  return { base, child, stop: () => stop(child) };
}

/** Stops a server: SIGTERM, then SIGKILL after 5 s (said in the log: a clean stop's work was cut short). */
export function stop(child) {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    const started = performance.now();
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      log(`process ${child.pid} did not stop ${Math.round(performance.now() - started)} ms after SIGTERM: killed`);
      child.kill('SIGKILL');
    }, 5000).unref();
  });
}

/** Processes started by `pid` (Linux). */
export function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Resident and peak memory of a process in MB (Linux). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** The fastest of `times` starts of a bare Node process (`node -e 0`) with `env`, in ms. */
function bareNodeStartMs(env, times) {
  let fastest = Number.POSITIVE_INFINITY;
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    execFileSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/**
 * A line saying how long a bare Node process takes to start here, which every start figure
 * includes (twice: `quire serve` and its server), and, when `NODE_EXTRA_CA_CERTS` is set (Node 20
 * reads that file of certificates as it starts), how long without it.
 */
export function nodeStartLine(env = process.env, times = 3) {
  const ms = Math.round(bareNodeStartMs(env, times));
  if (!env.NODE_EXTRA_CA_CERTS) return `Node start: \`node -e 0\` ${ms} ms.`;
  const { NODE_EXTRA_CA_CERTS: _certs, ...without } = env;
  const withoutMs = Math.round(bareNodeStartMs(without, times));
  return `Node start: \`node -e 0\` ${ms} ms with NODE_EXTRA_CA_CERTS set, as it is here (Node reads those certificates at every start), ${withoutMs} ms without; Quire's start figures include two Node starts.`;
}

/** Clock ticks a second in /proc's CPU times (USER_HZ: 100 on Linux's usual builds). */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time a process has used, user and system, in ms (Linux); null when it is gone. */
export function cpuMsOf(pid) {
  try {
    // Fields after the command name, which may hold spaces: state is the first, utime the 12th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The processes of PostgreSQL servers on this machine: the postmaster, its backends and workers. */
export function postgresPids() {
  const pids = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') pids.push(Number(entry));
    } catch {}
  }
  return pids;
}

/** Busy and total clock ticks of every CPU since boot (/proc/stat; idle and iowait are not busy). */
function machineTicks() {
  try {
    const [, ...times] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = times.map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy, total: busy + idle + iowait };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/**
 * Starts counting CPU time: each of `groups` (a name and a function giving its pids, asked at the
 * start and at the end, so a process started meanwhile counts in full and one gone meanwhile is
 * left out), this process (the load generator) and the whole machine. The returned function stops
 * and gives `{ groups: { name: CPU ms }, load: CPU ms, busyCores, cores }`.
 */
export function cpuMeter(groups) {
  const sample = () =>
    Object.fromEntries(
      Object.entries(groups).map(([name, pidsOf]) => [name, new Map(pidsOf().map((pid) => [pid, cpuMsOf(pid)]))]),
    );
  const before = { groups: sample(), self: process.cpuUsage(), machine: machineTicks() };
  return () => {
    const after = { groups: sample(), self: process.cpuUsage(before.self), machine: machineTicks() };
    const used = {};
    for (const [name, now] of Object.entries(after.groups)) {
      let ms = 0;
      for (const [pid, cpu] of now) if (cpu !== null) ms += cpu - (before.groups[name].get(pid) ?? 0);
      used[name] = ms;
    }
    const machine = {
      busy: after.machine.busy - before.machine.busy,
      total: after.machine.total - before.machine.total,
    };
    const cores = availableParallelism();
    return {
      groups: used,
      load: (after.self.user + after.self.system) / 1000,
      busyCores: machine.total > 0 ? (machine.busy / machine.total) * cores : Number.NaN,
      cores,
    };
  };
}
