// The benchmark: Quire on SQLite and on PostgreSQL, each beside a naive floor server on its own
// engine (and optionally Directus), on the same rows.
//
//   npm run bench [-- --sizes 10k,100k,1m] [--engines sqlite,postgres] [--pg-sizes 100k] [--duration 8]
//                    [--repeat 1] [--peer] [--feed-changes 1m] [--image-seconds 8] [--localized-rows 2k]
//                    [--out bench/RESULTS.md]
//
// Per size: the rows (../shared/bench/data.mjs) go into Quire through `quire import` and into each
// floor (bench/floor-writes.mjs, bench/floor-postgres.mjs); then Quire on each engine, followed by its
// floor, runs the distinct-request workloads (bench/distinct-workloads.mjs) and the repeated-URL ones
// that measure the caches (bench/workloads-bench.mjs); the SQLite floor's gets run once more with
// Quire's whole answer (bench/get-answer-floor.mjs). Then the change feed (bench/change-feed-bench.mjs)
// and image variants (bench/image-variants-bench.mjs), and the localized workload (bench/localized-bench.mjs:
// lists, searches and gets in three locales beside an unlocalized twin, on each engine). It prints the tables
// (bench/report.mjs) and writes RESULTS.md.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { feedMarkdown, measureFeed } from './change-feed-bench.mjs';
import { floorIds, keywordsOf } from './distinct-workloads.mjs';
import { measureVariants, variantsMarkdown } from './image-variants-bench.mjs';
import { localizedMarkdown, measureLocalized } from './localized-bench.mjs';
import {
  loadPostgres,
  PG_ADMIN_URL,
  redact,
  serverVersion,
  settlePostgres,
  startPostgresFloor,
  throwawayDatabase,
  unreachableReason,
} from './postgres-bench.mjs';
import { log, nodeStartLine, run, settleDisk } from './processes.mjs';
import { measureQuire } from './quire-bench.mjs';
import { label, resultsMarkdown } from './report.mjs';
import {
  copyFloor,
  dataFile,
  importSqlite,
  indexSecondsOf,
  sqliteDbOf,
  startAnswerFloor,
  startSqliteFloor,
} from './sqlite-bench.mjs';
import { CONNECTIONS, firstId, measure, measureDistinctGet, workloads } from './workloads-bench.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const shared = resolve(process.env.QUIRE_SHARED_BENCH ?? join(repo, '..', 'shared', 'bench'));
const dataDir = join(repo, 'bench', '.data');
const cli = join(repo, 'dist', 'server', 'cli.js');
const ENGINES = ['sqlite', 'postgres'];

const { values: args } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10k,100k,1m' },
    engines: { type: 'string' },
    'pg-sizes': { type: 'string', default: '100k' },
    duration: { type: 'string', default: '8' },
    repeat: { type: 'string', default: '1' },
    peer: { type: 'boolean', default: false },
    // Changes the change feed is paged through on each engine (bench/change-feed-bench.mjs); 0 skips it.
    'feed-changes': { type: 'string', default: '1m' },
    // Seconds of each image-variant run (bench/image-variants-bench.mjs); 0 skips it.
    'image-seconds': { type: 'string', default: '8' },
    // Rows per type of the localized workload (bench/localized-bench.mjs), loaded through the API; 0 skips it.
    'localized-rows': { type: 'string', default: '2k' },
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
/** What the measurements are given (bench/workloads-bench.mjs, bench/quire-bench.mjs). */
const settings = { cli, repo, duration, repeat, keywords, rareKeyword: RARE_KEYWORD };
// The floors import better-sqlite3 and data.mjs; a copy under bench/ resolves it from Quire's node_modules.
copyFloor(shared, join(repo, 'bench'));

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
    /** A floor's workloads, on its own ids (`floorIds`); `database`: it runs on PostgreSQL. */
    const measureFloor = (name, floor, database = false) =>
      measure(settings, name, floor.base, floorIds(n), n, [floor.child.pid], database);
    if (sqliteFloor) {
      const quire = await measureQuire(settings, 'sqlite', sqlite.db, results.engines.sqlite, n);
      results.systems.quire = quire.results;
      results.systems.floor = await measureFloor('floor', sqliteFloor);
      // The floor's gets again with Quire's whole answer: how much of the gets' gap is the answer.
      const answerFloor = await startAnswerFloor({ repo, dataDir, file: sqliteFloor.file, columns: quire.columns });
      floors.push(answerFloor);
      const pids = [answerFloor.child.pid];
      results.systems.answerFloor = await measureDistinctGet(
        settings,
        "floor, Quire's answer",
        answerFloor.base,
        floorIds(n),
        pids,
      );
      await answerFloor.stop();
    }
    if (pgFloor) {
      results.systems.postgres = (
        await measureQuire(settings, 'postgres', pgDb.url, results.engines.postgres, n)
      ).results;
      results.systems.postgresFloor = await measureFloor('floor postgres', pgFloor, true);
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
    peer = { n, results: await workloads(settings, base, 'directus', id, pids) };
  } catch (error) {
    peer = { n, error: error.message.split('\n')[0] };
    log(`peer failed: ${peer.error}`);
  }
}

// The change feed paged from its start to its end over HTTP, on each engine (bench/change-feed-bench.mjs).
const feed = [];
const feedChanges = parseSize(args['feed-changes']);
for (const engine of feedChanges > 0 ? engines : []) {
  log(`\n== change feed, ${label(feedChanges)} changes, ${engine}`);
  try {
    feed.push(await measureFeed({ engine, count: feedChanges, limit: 1000 }));
  } catch (error) {
    feed.push({ engine, count: feedChanges, error: error.message.split('\n')[0] });
    log(`change feed on ${engine} failed: ${feed.at(-1).error}`);
  }
}

// Image variants made while other requests are answered, and a cache hit beside the original file
// (bench/image-variants-bench.mjs). On SQLite only: making variants does not touch the database.
let variants = null;
const imageSeconds = Number(args['image-seconds']);
if (imageSeconds > 0) {
  log(`\n== image variants, ${imageSeconds} s a run`);
  try {
    variants = await measureVariants({ cli, cwd: repo, seconds: imageSeconds });
  } catch (error) {
    variants = { seconds: imageSeconds, error: error.message.split('\n')[0] };
    log(`image variants failed: ${variants.error}`);
  }
}

// Lists, searches and gets in three locales beside the same rows unlocalized, on each engine
// (bench/localized-bench.mjs).
const localized = [];
const localizedRows = parseSize(args['localized-rows']);
for (const engine of localizedRows > 0 ? engines : []) {
  log(`\n== localized content, ${label(localizedRows)} rows per type, ${engine}`);
  try {
    localized.push(await measureLocalized({ cli, repo, rows: localizedRows, seconds: duration, engine }));
  } catch (error) {
    localized.push({ engine, error: error.message.split('\n')[0] });
    log(`localized content on ${engine} failed: ${localized.at(-1).error}`);
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
  JSON.stringify({ header, report, peer, feed, variants, localized }),
);
const markdown =
  resultsMarkdown({ header, report, peer }) +
  feedMarkdown(feed) +
  variantsMarkdown(variants) +
  localizedMarkdown(localized);
writeFileSync(args.out, markdown);
process.stdout.write(`${markdown}\n`);
log(`\nwrote ${relative(process.cwd(), args.out) || args.out}`);
