// The benchmark of issue 6: Quire against the floor (and optionally Directus) on the same rows, with
// Quire on SQLite and on PostgreSQL (issue 12), each beside the floor on its own engine.
//
//   npm run bench [-- --sizes 10k,100k,1m] [--engines sqlite,postgres] [--pg-sizes 100k] [--duration 8]
//                    [--repeat 1] [--peer] [--out bench/RESULTS.md]
//
// For each size it generates the reference rows (../shared/bench/data.mjs), loads them into a fresh
// Quire database through `quire import` (on PostgreSQL a throwaway database, bench/postgres-bench.mjs),
// loads each engine's floor with the same rows (SQLite: ../shared/bench/limit-server.mjs, with updates
// added by bench/floor-writes.mjs; PostgreSQL: bench/floor-postgres.mjs on a throwaway database of its
// own), and runs the workloads of ../shared/bench/README.md with autocannon (16 connections, loopback)
// against Quire on each engine in turn, each followed by its engine's floor: first the distinct-request ones of
// issue 13 (bench/distinct-workloads.mjs: search, list, get, mixed, create, update, every request
// different), then the repeated-URL ones of issue 6 (list, search, get, create), which measure the page
// and count caches. It prints the tables (bench/report.mjs) and writes RESULTS.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { floorIds, keywordsOf, quireIds, runDistinct } from './distinct-workloads.mjs';
import {
  loadPostgres,
  PG_ADMIN_URL,
  postgresIds,
  redact,
  serverVersion,
  settlePostgres,
  startPostgresFloor,
  throwawayDatabase,
  unreachableReason,
} from './postgres-bench.mjs';
import {
  childrenOf,
  cpuMeter,
  freePort,
  log,
  memoryOf,
  nodeStartLine,
  postgresPids,
  run,
  settleDisk,
  startServer,
  stop,
} from './processes.mjs';
import { label, resultsMarkdown } from './report.mjs';
import { copyFloor, dataFile, importSqlite, indexSecondsOf, sqliteDbOf, startSqliteFloor } from './sqlite-bench.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const shared = resolve(process.env.QUIRE_SHARED_BENCH ?? join(repo, '..', 'shared', 'bench'));
const dataDir = join(repo, 'bench', '.data');
const cli = join(repo, 'dist', 'server', 'cli.js');
const CONNECTIONS = 16;
const CREATE_BODY = 'title=Bench+post&status=draft&published_at=2026-01-01+00%3A00%3A00';
const DIRECTUS_TOKEN = 'bench-static-token-0123456789';
const ENGINES = ['sqlite', 'postgres'];

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10k,100k,1m' },
    engines: { type: 'string' },
    'pg-sizes': { type: 'string', default: '100k' },
    duration: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '1' },
    peer: { type: 'boolean', default: false },
    out: { type: 'string', default: join(repo, 'bench', 'RESULTS.md') },
  },
});
const sizes = args.sizes.split(',').map(parseSize);
const pgSizes = args['pg-sizes'].split(',').map(parseSize);
const duration = Number(args.duration);
const repeat = Math.max(1, Number(args.repeat));

function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim());
  if (!match) throw new Error(`--sizes: ${text} is not a size like 10k or 1m`);
  return Math.round(Number(match[1]) * { '': 1, k: 1e3, m: 1e6 }[match[2].toLowerCase()]);
}

if (!existsSync(join(shared, 'data.mjs'))) {
  log(`bench: ${shared} has no data.mjs; set QUIRE_SHARED_BENCH to the shared bench folder`);
  process.exit(2);
}
if (!existsSync(cli)) {
  log('bench: dist/server/cli.js is missing; run npm run build (npm run bench does it)');
  process.exit(2);
}

/** --engines as given (PostgreSQL must then answer), else both when PostgreSQL answers, else SQLite alone. */
async function chooseEngines() {
  const unreachable = await unreachableReason();
  if (args.engines === undefined) {
    if (!unreachable) return ENGINES;
    log(`bench: SQLite only: no PostgreSQL at ${unreachable} (set QUIRE_BENCH_PG_URL)`);
    return ['sqlite'];
  }
  const chosen = args.engines.split(',').map((engine) => engine.trim().toLowerCase());
  const unknown = chosen.filter((engine) => !ENGINES.includes(engine));
  if (unknown.length > 0 || chosen.length === 0) {
    log(`bench: --engines takes ${ENGINES.join(', ')} (comma-separated), not ${args.engines}`);
    process.exit(2);
  }
  if (chosen.includes('postgres') && unreachable) {
    log(`bench: --engines postgres, but no PostgreSQL at ${unreachable} (set QUIRE_BENCH_PG_URL)`);
    process.exit(2);
  }
  return ENGINES.filter((engine) => chosen.includes(engine));
}
const engines = await chooseEngines();
if (engines.includes('postgres') && !sizes.some((n) => pgSizes.includes(n))) {
  log(`bench: PostgreSQL runs at ${pgSizes.map(label).join(', ')} rows only (--pg-sizes); none of --sizes here`);
}

const { newsRows, RARE_KEYWORD } = await import(join(shared, 'data.mjs'));
const keywords = keywordsOf(newsRows, Math.min(5000, ...sizes));
mkdirSync(dataDir, { recursive: true });
// The floors import better-sqlite3 and data.mjs; a copy under bench/ resolves it from Quire's node_modules.
copyFloor(shared, join(repo, 'bench'));

/**
 * CPU time a completed request cost each process group of a run (`cpuMeter`), in µs, with the
 * load generator's (this process) and the machine's busy cores: where the time went.
 */
function cpuPerRequest(used, completed) {
  const per = (ms) => (completed > 0 ? Math.round((ms * 1000) / completed) : null);
  return {
    ...Object.fromEntries(Object.entries(used.groups).map(([name, ms]) => [name, per(ms)])),
    load: per(used.load),
    busyCores: Number(used.busyCores.toFixed(2)),
    cores: used.cores,
  };
}

/**
 * One autocannon run; the median of `repeat` runs by req/s. `groups` (see `cpuMeter`): processes
 * whose CPU time each run counts.
 */
async function load(options, groups = null) {
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    const meter = groups ? cpuMeter(groups) : null;
    const result = await autocannon({ connections: CONNECTIONS, duration, ...options });
    const used = meter?.();
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
      ...(used ? { cpu: cpuPerRequest(used, completed) } : {}),
    });
  }
  runs.sort((a, b) => a.rps - b.rps);
  return runs[Math.floor(runs.length / 2)];
}

/**
 * The four workloads against one system (`seed` style: the spec's /api/cms; or `directus`), with
 * the highest RSS of `pids` seen after each (a server may not outlive the create run's abrupt end)
 * and the CPU time of each run: `pids` as the server, PostgreSQL's processes as the database when
 * `database` (see `cpuPerRequest`).
 */
async function workloads(base, style, id, pids = [], ids = null, database = false) {
  const groups = { server: () => pids, ...(database ? { database: postgresPids } : {}) };
  const measured = (options) => load(options, groups);
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
      load: measured,
      warmUp: (options) => autocannon({ connections: CONNECTIONS, duration: 1, ...options }),
      after: sample,
    });
  }
  for (const name of ['list', 'search', 'get']) {
    const check = await fetch(urls[name], { headers });
    if (!check.ok) throw new Error(`${style} ${name}: ${check.status} ${await check.text()}`);
    await check.arrayBuffer();
    await autocannon({ url: urls[name], connections: CONNECTIONS, duration: 1, headers }); // warm-up
    results[name] = await measured({ url: urls[name], headers });
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
  results.create = await measured(createOptions);
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
// Read now, not at the end: the checkout may change while the run goes on (the built server does not).
let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
    cwd: repo,
    encoding: 'utf8',
  }).trim();
  if (dirty) commit += ' (with uncommitted changes)';
} catch {}
// Before any load: every start figure includes Node's own start.
const nodeStart = nodeStartLine();
const loadSamples = [];
setInterval(() => loadSamples.push(os.loadavg()[0]), 5000).unref();
const loadDuring = () =>
  loadSamples.length
    ? `min ${Math.min(...loadSamples).toFixed(2)}, mean ${(loadSamples.reduce((a, b) => a + b, 0) / loadSamples.length).toFixed(2)}, max ${Math.max(...loadSamples).toFixed(2)} (${loadSamples.length} samples)`
    : 'no samples';
/**
 * Starts `quire serve` on one engine's database and times its first answer, its first list (it has
 * to count every row, exact counts) and its first search: `{ quire, base, start }`.
 */
async function startQuire(engine, database) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const where = engine === 'sqlite' ? ['--db', database] : ['--database', database];
  const serveArgs = [cli, 'serve', ...where, '--port', String(port), '--no-backups', '--editor', 'bench'];
  await settleDisk();
  const quire = await startServer('quire', process.execPath, serveArgs, `${base}/api/cms-content`, 60_000, repo);
  try {
    const listUrl = `${base}/api/cms/news?filter=${encodeURIComponent('status=published')}&order=published_at&desc=true&limit=20`;
    await (await fetch(listUrl)).arrayBuffer();
    const firstListMs = performance.now() - quire.spawnedAt;
    // A keyword no workload sends. On SQLite the search waits for the in-memory index, which the
    // first list started building: the distinct runs then measure the index, not its build.
    const searchUrl = `${base}/api/cms/news?filter=${encodeURIComponent('search=quire start')}&limit=20`;
    const searchStarted = performance.now();
    await (await fetch(searchUrl)).arrayBuffer();
    const firstSearchMs = performance.now() - quire.spawnedAt;
    const start = { startMs: quire.startMs, firstListMs, firstSearchMs, searchMs: performance.now() - searchStarted };
    log(
      `${engine}: quire answered ${start.startMs.toFixed(0)} ms after start, its first list ${firstListMs.toFixed(0)} ms, its first search ${firstSearchMs.toFixed(0)} ms (the search itself ${start.searchMs.toFixed(0)} ms)`,
    );
    return { quire, base, start };
  } catch (error) {
    await stop(quire.child);
    throw error;
  }
}

/**
 * Starts `quire serve` on one engine's database, runs every workload against it and stops it. Start
 * figures go into `figures`. It then starts Quire again, on the search index its clean stop saved
 * (on SQLite the first start, after the import, has to build it; on PostgreSQL the import saved
 * one), and records that start as `restart`.
 */
async function measureQuire(engine, database, figures, n) {
  const { quire, base, start } = await startQuire(engine, database);
  let results;
  try {
    Object.assign(figures, start);
    // Each server's own ids in the data's order; the same random indexes pick from them.
    const ids = (engine === 'sqlite' ? quireIds(database) : await postgresIds(database)) ?? (await apiIds(base));
    // `quire serve` is a supervisor; the server is its child process.
    const pids = [quire.child.pid, ...childrenOf(quire.child.pid)];
    results = await measure(`quire ${engine}`, base, ids, n, pids, engine === 'postgres');
  } finally {
    const stopping = performance.now();
    await stop(quire.child);
    log(`${engine}: quire stopped in ${Math.round(performance.now() - stopping)} ms`);
    logServerMessages(engine, quire);
  }
  {
    log(`${engine}: quire again, on the search index its stop saved`);
    const again = await startQuire(engine, database);
    await stop(again.quire.child);
    logServerMessages(engine, again.quire);
    figures.restart = again.start;
  }
  return results;
}

/**
 * What a stopped server wrote to stderr, in the log: a clean stop that could not save its search
 * index says so there, and a restart that then builds the index is explained by it.
 */
function logServerMessages(engine, quire) {
  const lines = quire
    .stderr()
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('Stopping Quire'));
  for (const line of lines.slice(-20)) log(`${engine}: quire said: ${line}`);
}

/** A run's CPU time a request, as a log line's end. */
const cpuText = (cpu) =>
  cpu
    ? `; CPU a request: server ${cpu.server} µs${cpu.database === undefined ? '' : `, PostgreSQL ${cpu.database} µs`}, load generator ${cpu.load} µs; machine ${cpu.busyCores} of ${cpu.cores} cores busy`
    : '';

/** Every workload against one server, logged as it goes. */
async function measure(name, base, ids, n, pids, database = false) {
  if (ids.length !== n) throw new Error(`${name} has ${ids.length} rows, expected ${n}`);
  const results = await workloads(base, 'seed', await firstId(base, 'seed'), pids, ids, database);
  const { distinct, memory, ...cache } = results;
  for (const [workload, r] of [
    ...Object.entries(distinct).map(([k, r]) => [`distinct ${k}`, r]),
    ...Object.entries(cache).map(([k, r]) => [`cache ${k}`, r]),
  ]) {
    log(
      `${name} ${workload}: ${Number(r.rps.toFixed(1))} req/s p50 ${r.p50} ms p99 ${r.p99} ms${r.errors ? ` errors ${r.errors}` : ''}${r.repeatShare !== undefined ? ` repeated URLs ${(100 * r.repeatShare).toFixed(0)}%` : ''}${cpuText(r.cpu)}`,
    );
  }
  return results;
}

/**
 * One size: the rows loaded on each engine and each engine's floor, then, per engine, Quire and that
 * engine's floor back to back (SQLite: `systems.quire` and `systems.floor`; PostgreSQL:
 * `systems.postgres` and `systems.postgresFloor`).
 */
async function measureSize(n) {
  log(`\n== ${label(n)} rows`);
  const file = await dataFile(dataDir, newsRows, n);
  const results = { n, engines: {}, systems: {} };
  let sqlite = null;
  const ensureSqlite = async () => {
    if (!sqlite) await settleDisk(); // the data file was just written
    sqlite ??= await importSqlite({ cli, repo, dataDir, n, file });
    return sqlite;
  };
  if (engines.includes('sqlite')) {
    const { db, ...figures } = await ensureSqlite();
    results.engines.sqlite = figures;
  }
  let pgDb = null;
  const floors = [];
  try {
    if (engines.includes('postgres') && pgSizes.includes(n)) {
      // Loaded before any server writes to the SQLite file, which a copy may read from.
      pgDb = await throwawayDatabase(PG_ADMIN_URL, label(n).toLowerCase());
      const sqliteDb = sqliteDbOf(dataDir, n);
      const loaded = await loadPostgres({ cli, cwd: repo, db: pgDb, file, sqliteDb, ensureSqlite, n });
      if (loaded.via === 'copy')
        log(`postgres: quire import --database did not load the rows (${loaded.reason}); used quire copy`);
      log(`postgres: ${loaded.output} (${loaded.seconds.toFixed(1)} s with the process start)`);
      results.engines.postgres = {
        importRate: loaded.rate,
        importSeconds: loaded.seconds,
        ...indexSecondsOf(loaded.output),
        via: loaded.via,
      };
      await settlePostgres(pgDb.url);
    }
    // Both floors load their rows before anything is measured, so no load competes with a run.
    const sqliteFloor = results.engines.sqlite ? await startSqliteFloor({ repo, dataDir, n }) : null;
    if (sqliteFloor) floors.push(sqliteFloor);
    if (pgDb) log('starting the PostgreSQL floor (bench/floor-postgres.mjs; it loads its own database)');
    const pgFloor = pgDb
      ? await startPostgresFloor({ bench: join(repo, 'bench'), n, label: label(n).toLowerCase() })
      : null;
    if (pgFloor) floors.push(pgFloor);
    if (sqliteFloor) {
      results.systems.quire = await measureQuire('sqlite', sqlite.db, results.engines.sqlite, n);
      results.systems.floor = await measure('floor', sqliteFloor.base, floorIds(n), n, [sqliteFloor.child.pid]);
    }
    if (pgFloor) {
      results.systems.postgres = await measureQuire('postgres', pgDb.url, results.engines.postgres, n);
      const floorPids = [pgFloor.child.pid];
      results.systems.postgresFloor = await measure('floor postgres', pgFloor.base, floorIds(n), n, floorPids, true);
    }
  } finally {
    for (const floor of floors) await floor.stop();
    await pgDb?.drop();
  }
  return results;
}

const report = [];
for (const n of sizes) {
  if (engines.includes('sqlite') || pgSizes.includes(n)) report.push(await measureSize(n));
  else log(`\n== ${label(n)} rows: skipped (--engines postgres, and PostgreSQL runs at --pg-sizes only)`);
}

if (report.length === 0) {
  log('bench: nothing was measured (see above); RESULTS.md left as it was');
  process.exit(2);
}

let peer = null;
if (args.peer) {
  const n = sizes.includes(100000) ? 100000 : Math.min(...sizes);
  log(`\n== Directus (peer), ${label(n)} rows: install and load take minutes`);
  try {
    await run('bash', [join(shared, 'peer-directus.sh'), String(n)], repo);
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
const sqliteVersion = new Database(':memory:').prepare('select sqlite_version() as v').get().v;
const cpus = os.cpus();
/** Which engines ran at which sizes, and PostgreSQL's version and server. */
async function enginesLine() {
  const at = (key) => report.filter((r) => r.systems[key]).map((r) => label(r.n));
  const parts = [];
  if (at('quire').length) parts.push(`SQLite at ${at('quire').join(', ')} rows`);
  if (at('postgres').length) {
    const version = await serverVersion().catch(() => '(version unknown)');
    parts.push(
      `PostgreSQL ${version} at ${at('postgres').join(', ')} rows (${redact(PG_ADMIN_URL)}, same machine, a throwaway database per size)`,
    );
  } else {
    parts.push(
      engines.includes('postgres')
        ? 'no PostgreSQL run (--pg-sizes)'
        : 'no PostgreSQL (not reachable, or --engines sqlite)',
    );
  }
  return `Engines: Quire on ${parts.join('; ')}.`;
}
const header = [
  `Written by \`npm run bench\` (bench/run-bench.mjs). Date ${new Date().toISOString()}, commit ${commit}.`,
  `Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; Node ${process.version}, SQLite ${sqliteVersion}.`,
  nodeStart,
  `Load: autocannon, ${CONNECTIONS} connections, ${duration} s per run, median of ${repeat} run(s), after a 1 s warm-up, on 127.0.0.1 (load generator and servers share the cores). Load average before ${loadBefore.map((x) => x.toFixed(2)).join(' ')}, after ${loadAfter.map((x) => x.toFixed(2)).join(' ')}.`,
  `1-minute load average sampled every 5 s during the run: ${loadDuring()}.`,
  await enginesLine(),
  'Workloads and rows: ../shared/bench/README.md and data.mjs. Floors, each on its own copy of the same rows: ../shared/bench/limit-server.mjs on SQLite; bench/floor-postgres.mjs on PostgreSQL (node-postgres, a pool of 10, its own throwaway database).',
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
