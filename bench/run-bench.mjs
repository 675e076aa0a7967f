// The benchmark of issue 6: Quire against the SQLite floor (and optionally Directus) on the same rows.
//
//   npm run bench [-- --sizes 10k,100k,1m] [--duration 8] [--repeat 1] [--peer] [--out bench/RESULTS.md]
//
// For each size it generates the reference rows (../shared/bench/data.mjs), loads them into a fresh
// Quire database through `quire import`, loads the floor (../shared/bench/limit-server.mjs) with the
// same rows, starts both, and runs the workloads of ../shared/bench/README.md with autocannon
// (16 connections, loopback): first the distinct-request ones of issue 13 (bench/distinct-workloads.mjs:
// search, list, get, mixed, every request different), then the repeated-URL ones of issue 6 (list,
// search, get, create), which measure the page and count caches. It prints the tables and writes RESULTS.md.
import { execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { floorIds, keywordsOf, quireIds, runDistinct } from './distinct-workloads.mjs';
import { label, resultsMarkdown } from './report.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const shared = resolve(process.env.QUIRE_SHARED_BENCH ?? join(repo, '..', 'shared', 'bench'));
const dataDir = join(repo, 'bench', '.data');
const floorDir = join(repo, 'bench', '.floor');
const CONNECTIONS = 16;
const CREATE_BODY = 'title=Bench+post&status=draft&published_at=2026-01-01+00%3A00%3A00';
const DIRECTUS_TOKEN = 'bench-static-token-0123456789';

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10k,100k,1m' },
    duration: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '1' },
    peer: { type: 'boolean', default: false },
    out: { type: 'string', default: join(repo, 'bench', 'RESULTS.md') },
  },
});
const sizes = args.sizes.split(',').map(parseSize);
const duration = Number(args.duration);
const repeat = Math.max(1, Number(args.repeat));

function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`--sizes: ${text} is not a size like 10k or 1m`);
  return Math.round(Number(match[1]) * { '': 1, k: 1e3, m: 1e6 }[match[2].toLowerCase()]);
}

const log = (line) => process.stderr.write(`${line}\n`);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

if (!existsSync(join(shared, 'data.mjs'))) {
  log(`bench: ${shared} has no data.mjs; set QUIRE_SHARED_BENCH to the shared bench folder`);
  process.exit(2);
}
if (!existsSync(join(repo, 'dist', 'server', 'cli.js'))) {
  log('bench: dist/server/cli.js is missing; run npm run build (npm run bench does it)');
  process.exit(2);
}
const { newsRows, RARE_KEYWORD } = await import(join(shared, 'data.mjs'));
const keywords = keywordsOf(newsRows, Math.min(5000, ...sizes));
mkdirSync(dataDir, { recursive: true });
// The floor imports better-sqlite3; a copy under bench/ resolves it from Quire's node_modules.
mkdirSync(floorDir, { recursive: true });
for (const file of ['limit-server.mjs', 'data.mjs']) copyFileSync(join(shared, file), join(floorDir, file));

async function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** The reference rows as NDJSON, written once per size. */
async function dataFile(n) {
  const file = join(dataDir, `news-${label(n)}.ndjson`);
  if (existsSync(file) && statSync(file).size > 0) return file;
  const out = createWriteStream(`${file}.tmp`);
  let chunk = '';
  for (const row of newsRows(n)) {
    chunk += `${JSON.stringify(row)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise((done) => out.once('drain', done));
      chunk = '';
    }
  }
  out.write(chunk);
  await new Promise((done) => out.end(done));
  execFileSync('mv', [`${file}.tmp`, file]);
  return file;
}

function removeDb(file) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  rmSync(join(dirname(file), 'backups'), { recursive: true, force: true });
}

function run(command, commandArgs) {
  return new Promise((done, fail) => {
    const child = spawn(command, commandArgs, { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    child.once('error', fail);
    child.once('exit', (code) =>
      code === 0 ? done(output) : fail(new Error(`${command} ${commandArgs.join(' ')}: ${output}`)),
    );
  });
}

/** Starts a server process and waits for its first successful answer to `probe`. */
async function startServer(name, command, commandArgs, probe, timeoutMs) {
  const started = performance.now();
  const child = spawn(command, commandArgs, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
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
        return { child, startMs: performance.now() - started, spawnedAt: started };
      }
    } catch {}
    if (performance.now() - started > timeoutMs) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not answer within ${timeoutMs} ms: ${errors}`);
    }
    await sleep(5);
  }
}

function stop(child) {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', done);
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** Processes started by `pid` (Linux). */
function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: 0, peak: 0 };
  }
}

/** One autocannon run; the median of `repeat` runs by req/s. */
async function load(options) {
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    const result = await autocannon({ connections: CONNECTIONS, duration, ...options });
    // Slow systems finish few requests in a run: below 10 req/s the rate is completed / duration.
    const completed = result.requests.total;
    const rps = result.requests.average >= 10 ? Math.round(result.requests.average) : completed / result.duration;
    runs.push({
      rps,
      completed,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.non2xx, // autocannon's errors include its timeouts
      timeouts: result.timeouts,
      non2xx: result.non2xx,
    });
  }
  runs.sort((a, b) => a.rps - b.rps);
  return runs[Math.floor(runs.length / 2)];
}

/**
 * The four workloads against one system (`seed` style: the spec's /api/cms; or `directus`), with
 * the highest RSS of `pids` seen after each (a server may not outlive the create run's abrupt end).
 */
async function workloads(base, style, id, pids = [], ids = null) {
  let memory = { rss: 0, peak: 0 };
  const sample = () => {
    for (const pid of pids) {
      const now = memoryOf(pid);
      if (now.rss > memory.rss) memory = now;
    }
  };
  const enc = encodeURIComponent;
  const headers = style === 'directus' ? { authorization: `Bearer ${DIRECTUS_TOKEN}` } : {};
  const urls =
    style === 'directus'
      ? {
          list: `${base}/items/news?filter[status][_eq]=published&sort=-published_at&limit=20&meta=total_count,filter_count`,
          search: `${base}/items/news?filter[_or][0][title][_icontains]=${enc(RARE_KEYWORD)}&filter[_or][1][slug][_icontains]=${enc(RARE_KEYWORD)}&limit=20&meta=total_count,filter_count`,
          get: `${base}/items/news/${id}`,
          create: `${base}/items/news`,
        }
      : {
          list: `${base}/api/cms/news?filter=${enc('status=published')}&order=published_at&desc=true&limit=20`,
          search: `${base}/api/cms/news?filter=${enc(`search=${RARE_KEYWORD}`)}&limit=20`,
          get: `${base}/api/cms/news/${id}`,
          create: `${base}/api/cms/news`,
        };
  const results = {};
  if (ids) {
    results.distinct = await runDistinct({
      base,
      keywords,
      ids,
      load,
      warmUp: (options) => autocannon({ connections: CONNECTIONS, duration: 1, ...options }),
      after: sample,
    });
  }
  for (const name of ['list', 'search', 'get']) {
    const check = await fetch(urls[name], { headers });
    if (!check.ok) throw new Error(`${style} ${name}: ${check.status} ${await check.text()}`);
    await check.arrayBuffer();
    await autocannon({ url: urls[name], connections: CONNECTIONS, duration: 1, headers }); // warm-up
    results[name] = await load({ url: urls[name], headers });
    sample();
  }
  let n = 0;
  const createOptions =
    style === 'directus'
      ? {
          url: urls.create,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                body: JSON.stringify({
                  title: 'Bench post',
                  slug: `p-${process.pid}-${n++}`,
                  status: 'draft',
                  published_at: '2026-01-01T00:00:00',
                }),
              }),
            },
          ],
        }
      : {
          url: urls.create,
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: CREATE_BODY,
        };
  results.create = await load(createOptions);
  sample();
  results.memory = memory;
  return results;
}

async function firstId(base, style) {
  const url = style === 'directus' ? `${base}/items/news?limit=1&sort=id` : `${base}/api/cms/news?limit=1&order=id`;
  const body = await (
    await fetch(url, { headers: style === 'directus' ? { authorization: `Bearer ${DIRECTUS_TOKEN}` } : {} })
  ).json();
  return style === 'directus' ? body.data[0].id : body.rows[0].id;
}

/** Every row id through the API, when the database could not be read directly (slow at 1M rows). */
async function apiIds(base) {
  const ids = [];
  for (let offset = 0; ; offset += 1000) {
    const body = await (await fetch(`${base}/api/cms/news?order=id&limit=1000&offset=${offset}`)).json();
    ids.push(...body.rows.map((row) => row.id));
    if (body.rows.length < 1000) return ids;
  }
}

const loadBefore = os.loadavg();
const loadSamples = [];
setInterval(() => loadSamples.push(os.loadavg()[0]), 5000).unref();
const loadDuring = () =>
  loadSamples.length
    ? `min ${Math.min(...loadSamples).toFixed(2)}, mean ${(loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length).toFixed(2)}, max ${Math.max(...loadSamples).toFixed(2)} (${loadSamples.length} samples)`
    : 'no samples';
const report = [];
for (const n of sizes) {
  log(`\n== ${label(n)} rows`);
  const file = await dataFile(n);

  const quireDb = join(dataDir, `quire-${label(n)}`, 'content.sqlite');
  removeDb(quireDb);
  mkdirSync(dirname(quireDb), { recursive: true });
  const importStarted = performance.now();
  const importOutput = await run(process.execPath, [
    join(repo, 'dist', 'server', 'cli.js'),
    'import',
    '--db',
    quireDb,
    '--type',
    'news',
    file,
  ]);
  const importSeconds = (performance.now() - importStarted) / 1000;
  const importRate = Number(/\(([\d,]+) rows\/s\)/.exec(importOutput)?.[1].replaceAll(',', '') ?? 0);
  log(importOutput.trim());
  const quireIdList = quireIds(quireDb);

  const floorDb = join(dataDir, `floor-${label(n)}.db`);
  removeDb(floorDb);
  const floorPort = await freePort();
  const floorBase = `http://127.0.0.1:${floorPort}`;
  log('starting the floor (it loads its own copy of the rows)');
  const floor = await startServer(
    'floor',
    process.execPath,
    [join(floorDir, 'limit-server.mjs'), floorDb, String(floorPort), String(n)],
    `${floorBase}/api/cms/news?limit=1`,
    600_000,
  );

  const quirePort = await freePort();
  const quireBase = `http://127.0.0.1:${quirePort}`;
  const quire = await startServer(
    'quire',
    process.execPath,
    [
      join(repo, 'dist', 'server', 'cli.js'),
      'serve',
      '--db',
      quireDb,
      '--port',
      String(quirePort),
      '--no-backups',
      '--editor',
      'bench',
    ],
    `${quireBase}/api/cms-content`,
    60_000,
  ).catch(async (error) => {
    await stop(floor.child); // not left running when Quire cannot start
    throw error;
  });
  // The first list has to count every row (exact counts); later ones come from the read cache.
  const listUrl = `${quireBase}/api/cms/news?filter=${encodeURIComponent('status=published')}&order=published_at&desc=true&limit=20`;
  await (await fetch(listUrl)).arrayBuffer();
  const firstListMs = performance.now() - quire.spawnedAt;
  log(
    `quire answered ${quire.startMs.toFixed(0)} ms after start, its first list ${firstListMs.toFixed(0)} ms after start`,
  );

  const results = { n, importRate, importSeconds, startMs: quire.startMs, firstListMs, systems: {} };
  try {
    for (const [name, base, child] of [
      ['quire', quireBase, quire.child],
      ['floor', floorBase, floor.child],
    ]) {
      const id = await firstId(base, 'seed');
      // Each server's own ids in the data's order; the same random indexes pick from them.
      const ids = name === 'floor' ? floorIds(n) : (quireIdList ?? (await apiIds(base)));
      if (ids.length !== n) throw new Error(`${name} has ${ids.length} rows, expected ${n}`);
      // `quire serve` is a supervisor; the server is its child process (the floor has none).
      results.systems[name] = await workloads(base, 'seed', id, [child.pid, ...childrenOf(child.pid)], ids);
      const { distinct, memory, ...cache } = results.systems[name];
      for (const [workload, r] of [
        ...Object.entries(distinct).map(([k, r]) => [`distinct ${k}`, r]),
        ...Object.entries(cache).map(([k, r]) => [`cache ${k}`, r]),
      ]) {
        log(
          `${name} ${workload}: ${Number(r.rps.toFixed(1))} req/s p50 ${r.p50} ms p99 ${r.p99} ms${r.errors ? ` errors ${r.errors}` : ''}${r.repeatShare !== undefined ? ` repeated URLs ${(100 * r.repeatShare).toFixed(0)}%` : ''}`,
        );
      }
    }
  } finally {
    await stop(quire.child);
    await stop(floor.child);
  }
  report.push(results);
}

let peer = null;
if (args.peer) {
  const n = sizes.includes(100000) ? 100000 : Math.min(...sizes);
  log(`\n== Directus (peer), ${label(n)} rows: install and load take minutes`);
  try {
    await run('bash', [join(shared, 'peer-directus.sh'), String(n)]);
    const base = 'http://127.0.0.1:8055';
    const id = await firstId(base, 'directus');
    const pids = execFileSync('pgrep', ['-f', 'directus start'], { encoding: 'utf8' }).trim().split('\n').map(Number);
    peer = { n, results: await workloads(base, 'directus', id, pids) };
  } catch (error) {
    peer = { n, error: error.message.split('\n')[0] };
    log(`peer failed: ${peer.error}`);
  }
}

const loadAfter = os.loadavg();
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
  if (dirty) commit += ' (with uncommitted changes)';
} catch {}
const sqliteVersion = new Database(':memory:').prepare('select sqlite_version() as v').get().v;
const cpus = os.cpus();
const header = [
  `Written by \`npm run bench\` (bench/run-bench.mjs). Date ${new Date().toISOString()}, commit ${commit}.`,
  `Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; Node ${process.version}, SQLite ${sqliteVersion}.`,
  `Load: autocannon, ${CONNECTIONS} connections, ${duration} s per run, median of ${repeat} run(s), after a 1 s warm-up, on 127.0.0.1 (load generator and servers share the cores). Load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}.`,
  `1-minute load average sampled every 5 s during the run: ${loadDuring()}.`,
  'Workloads and rows: ../shared/bench/README.md and data.mjs. Floor: ../shared/bench/limit-server.mjs on its own copy of the same rows.',
];
// The raw figures, for bench/report.mjs (it can write the tables again, or from several runs).
writeFileSync(
  join(dataDir, `report-${args.sizes.replaceAll(',', '-')}.json`),
  JSON.stringify({ header, report, peer }),
);
const markdown = resultsMarkdown({ header, report, peer });
writeFileSync(args.out, markdown);
process.stdout.write(`${markdown}\n`);
log(`\nwrote ${relative(process.cwd(), args.out) || args.out}`);
