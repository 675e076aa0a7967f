// The tables of bench/RESULTS.md from the figures of bench/run-bench.mjs.
//
//   node bench/report.mjs bench/.data/report-100k.json [bench/.data/report-1m.json ...] > RESULTS.md
//
// With several files (runs of different sizes), the tables hold every size and the header every run.
// Each table row is one engine under Quire (SQLite, PostgreSQL) beside the floor on that engine in the
// same run (runs from before the PostgreSQL floor: the SQLite floor, and the row says so).
import { readFileSync } from 'node:fs';
import { DISTINCT_WORKLOADS } from './distinct-workloads.mjs';

/** The repeated-URL workloads' targets, per workload (req/s; ratio to the floor where the target is relative). */
const TARGETS = {
  list: { 100000: 5000, 1000000: 5000 },
  search: { 100000: 3000, 1000000: 2000 },
  get: { ratio: 0.7 },
  create: { ratio: 0.7 },
};
/** The distinct-request workloads' targets, per size (`all`: every size). */
const DISTINCT_TARGETS = {
  search: { 100000: { rps: 3000 }, 1000000: { rps: 500, p99: 100 } },
  list: { 1000000: { rps: 1000 } },
  get: { all: { ratio: 0.9 } },
  mixed: { 1000000: { ratio: 5 } },
  create: { 100000: { ratio: 1.5 }, 1000000: { ratio: 1.5 } },
  update: { 100000: { ratio: 1.5 }, 1000000: { ratio: 1.5 } },
};
/** Quire's engines in table order: the key of its figures in a run's `systems`, and its name. */
const ENGINES = [
  ['quire', 'sqlite'],
  ['postgres', 'postgres'],
];
/** The key of each engine's floor in a run's `systems`. */
const FLOORS = { sqlite: 'floor', postgres: 'postgresFloor' };

export const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
const fmt = (x) => (x < 10 && !Number.isInteger(x) ? x.toFixed(1) : Math.round(x).toLocaleString('en-US'));
/** Fewer completed requests than this in a run: no ratio and no verdict on a ratio from it. */
const MIN_DONE = 20;
const few = (x) => x.completed !== undefined && x.completed < MIN_DONE;
/** A floor that failed requests gives no ratio either: its rate is not that of the work asked. */
const floorFailed = (f) => (f.errors ?? 0) > 0;
const ratioOf = (q, f) => (few(q) || few(f) || floorFailed(f) || f.rps <= 0 ? Number.NaN : q.rps / f.rps);
const ratioText = (ratio, f) =>
  !Number.isNaN(ratio)
    ? ratio.toFixed(2)
    : floorFailed(f) && !few(f)
      ? '— (the floor failed)'
      : `— (< ${MIN_DONE} done)`;
const ms = (x, p) => (x.completed === 0 ? '—' : x[p]);
const done = (x) => (x.completed === undefined ? '' : ` (${fmt(x.completed)} done)`);
const mark = (met) => (met === null ? '' : met ? ' ✓' : ' ✗');
// A target is never met by a run in which Quire answered any request with an error status: failures are not throughput.

function errors(x) {
  if (!x.errors) return '';
  if (x.timeouts === undefined) return ` (${fmt(x.errors)} errors)`;
  const other = x.errors - x.timeouts - x.non2xx;
  const parts = [
    x.timeouts && `${fmt(x.timeouts)} timeouts`,
    x.non2xx && `${fmt(x.non2xx)} non-2xx`,
    other && `${fmt(other)} errors`,
  ];
  return ` (${parts.filter(Boolean).join(', ')})`;
}

/** A size's import and start figures per engine (runs written before PostgreSQL kept SQLite's at the top). */
function enginesOf(r) {
  if (r.engines) return r.engines;
  const { importRate, importSeconds, startMs, firstListMs, firstSearchMs } = r;
  return { sqlite: { importRate, importSeconds, startMs, firstListMs, firstSearchMs, via: 'import' } };
}

/** The engines measured in a size's run: [engine name, its figures]. */
const measured = (r) => ENGINES.filter(([key]) => r.systems[key]).map(([key, engine]) => [engine, r.systems[key]]);

/**
 * The floor an engine's rows are compared with: its figures, and a note for the floor cells when that
 * is not the engine's own (PostgreSQL in runs from before the PostgreSQL floor: the SQLite floor).
 */
function floorOf(r, engine) {
  const own = r.systems[FLOORS[engine]];
  return own ? { floor: own, note: '' } : { floor: r.systems.floor, note: ' (SQLite floor)' };
}

/** Where a verdict goes: SQLite's are the headline, PostgreSQL's (against the PostgreSQL floor) are listed apart. */
const verdictName = (what, engine) => (engine === 'sqlite' ? what : `${what} (postgres)`);

function distinctRows(report, verdicts) {
  const rows = [];
  for (const r of report) {
    for (const workload of DISTINCT_WORKLOADS) {
      for (const [engine, system] of measured(r)) {
        const { floor, note } = floorOf(r, engine);
        const a = system.distinct[workload];
        const b = floor.distinct[workload];
        if (!a || !b) continue; // a run from before this workload existed
        const ratio = ratioOf(a, b);
        const target = DISTINCT_TARGETS[workload][r.n] ?? DISTINCT_TARGETS[workload].all;
        let goals = '';
        let met = null;
        if (target) {
          const checks = [
            [target.rps, `>= ${fmt(target.rps ?? 0)}`, a.rps >= target.rps],
            [target.p99, `p99 <= ${target.p99} ms`, a.p99 <= target.p99],
            [target.ratio, `>= ${target.ratio} x floor`, ratio >= target.ratio],
          ].filter(([wanted]) => wanted);
          goals = checks.map(([, goal]) => goal).join(', ');
          met = target.ratio && Number.isNaN(ratio) ? null : checks.every(([, , ok]) => ok) && !a.non2xx;
        }
        const repeated =
          a.repeatShare === undefined || workload === 'create' || workload === 'update'
            ? '—'
            : `${(100 * a.repeatShare).toFixed(0)} %`;
        rows.push(
          `| ${label(r.n)} | ${engine} | ${workload} | ${fmt(a.rps)}${done(a)}${errors(a)} | ${ms(a, 'p50')} | ${ms(a, 'p99')} | ${fmt(b.rps)}${done(b)}${errors(b)}${note} | ${ms(b, 'p50')} | ${ms(b, 'p99')} | ${ratioText(ratio, b)} | ${repeated} | ${goals}${mark(met)} |`,
        );
        if (met !== null) verdicts.push({ what: verdictName(`distinct ${workload} ${label(r.n)}`, engine), met });
      }
    }
  }
  return rows;
}

/** A run's CPU µs a request as a cell: "—" where it was not measured (runs before it, or no database). */
const micros = (x) => (x === undefined || x === null ? '—' : fmt(x));

/**
 * Where the CPU went in the distinct runs: µs a request for Quire's server, PostgreSQL's processes
 * and the load generator, beside the floor's, and what Quire's rate at the target would take at
 * those costs: the target's rate times Quire's µs a request (server, database and load generator:
 * they share the machine), in cores.
 */
function cpuRows(report) {
  const rows = [];
  for (const r of report) {
    for (const workload of DISTINCT_WORKLOADS) {
      for (const [engine, system] of measured(r)) {
        const { floor } = floorOf(r, engine);
        const a = system.distinct[workload];
        const b = floor.distinct[workload];
        if (!a?.cpu || !b?.cpu) continue;
        const target = DISTINCT_TARGETS[workload][r.n] ?? DISTINCT_TARGETS[workload].all;
        const targetRps = target?.rps ?? (target?.ratio ? target.ratio * b.rps : null);
        const perRequest = (a.cpu.server ?? 0) + (a.cpu.database ?? 0) + (a.cpu.load ?? 0);
        const needs =
          targetRps && a.rps < targetRps
            ? `${fmt(targetRps)} req/s: ${((targetRps * perRequest) / 1e6).toFixed(1)} of ${a.cpu.cores} cores`
            : '—';
        const cells = (x) =>
          `${fmt(x.rps)} | ${micros(x.cpu.server)} | ${micros(x.cpu.database)} | ${micros(x.cpu.load)} | ${x.cpu.busyCores}`;
        rows.push(`| ${label(r.n)} | ${engine} | ${workload} | ${cells(a)} | ${cells(b)} | ${needs} |`);
      }
    }
  }
  return rows;
}

function cacheRows(report, verdicts) {
  const rows = [];
  for (const r of report) {
    for (const workload of ['list', 'search', 'get', 'create']) {
      for (const [engine, q] of measured(r)) {
        const { floor: f, note } = floorOf(r, engine);
        const ratio = ratioOf(q[workload], f[workload]);
        const target = TARGETS[workload];
        let goal = '';
        let met = null;
        if (target.ratio) {
          goal = `>= ${target.ratio} x floor`;
          met = Number.isNaN(ratio) ? null : ratio >= target.ratio && !q[workload].non2xx;
        } else if (target[r.n]) {
          goal = `>= ${fmt(target[r.n])}`;
          met = q[workload].rps >= target[r.n] && !q[workload].non2xx;
        }
        rows.push(
          `| ${label(r.n)} | ${engine} | ${workload} | ${fmt(q[workload].rps)}${done(q[workload])}${errors(q[workload])} | ${ms(q[workload], 'p50')} | ${ms(q[workload], 'p99')} | ${fmt(f[workload].rps)}${done(f[workload])}${errors(f[workload])}${note} | ${ms(f[workload], 'p50')} | ${ms(f[workload], 'p99')} | ${ratioText(ratio, f[workload])} | ${goal}${mark(met)} |`,
        );
        if (met !== null) verdicts.push({ what: verdictName(`cache ${workload} ${label(r.n)}`, engine), met });
      }
    }
  }
  return rows;
}

/** The RSS target at 1M rows, the in-memory search index included. */
const RSS_TARGET_MB = 250;

/** Milliseconds as a table cell: seconds from 10 s on, "—" when not measured (older reports). */
const seconds = (ms) => (ms === undefined ? '—' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`);

/** What an import's wall time holds, where it said: the table's indexes (part of the rows' rate) and the search index. */
function importParts(e) {
  const parts = [
    e.tableIndexSeconds === undefined ? null : `the table's indexes ${e.tableIndexSeconds.toFixed(1)} s`,
    e.indexSeconds === undefined ? null : `the search index ${e.indexSeconds.toFixed(1)} s`,
  ].filter(Boolean);
  return parts.length ? `, of which ${parts.join(' and ')}` : '';
}

function extraRows(report, verdicts) {
  const rows = [];
  for (const r of report) {
    const engines = enginesOf(r);
    for (const [engine, system] of measured(r)) {
      const { floor, note } = floorOf(r, engine);
      const f = floor.memory;
      const e = engines[engine];
      const q = system.memory;
      const big = r.n >= 1e6;
      const importMet = e.importRate >= 100000;
      const via = e.via === 'copy' ? ' via quire copy' : '';
      verdicts.push({ what: verdictName(`import ${label(r.n)}`, engine), met: importMet });
      if (big) {
        verdicts.push({ what: verdictName('start 1M', engine), met: e.startMs <= 500 });
        verdicts.push({ what: verdictName('RSS 1M', engine), met: q.rss <= RSS_TARGET_MB });
        if (e.searchMs !== undefined)
          verdicts.push({ what: verdictName('first search 1M after import', engine), met: e.searchMs <= 100 });
        if (e.restart)
          verdicts.push({ what: verdictName('first search 1M after restart', engine), met: e.restart.searchMs <= 100 });
      }
      // The search request itself, judged at 1M rows by the 100 ms any single search may take.
      const search = (ms) => (ms === undefined ? '' : ` (search ${seconds(ms)}${big ? mark(ms <= 100) : ''})`);
      const restart = e.restart
        ? `${e.restart.startMs.toFixed(0)} ms, ${seconds(e.restart.firstSearchMs)}${search(e.restart.searchMs)}`
        : '—';
      rows.push(
        `| ${label(r.n)} | ${engine} | ${fmt(e.importRate)} (${e.importSeconds.toFixed(1)} s${importParts(e)})${via}${mark(importMet)} | ${e.startMs.toFixed(0)} ms${big ? mark(e.startMs <= 500) : ''} | ${e.firstListMs.toFixed(0)} ms | ${seconds(e.firstSearchMs)}${search(e.searchMs)} | ${restart} | ${q.rss.toFixed(0)} MB${big ? mark(q.rss <= RSS_TARGET_MB) : ''} (peak ${q.peak.toFixed(0)}) | ${f.rss.toFixed(0)} MB (peak ${f.peak.toFixed(0)})${note} |`,
      );
    }
  }
  return rows;
}

/** The first columns of the distinct and cache tables: a size and workload, Quire's and the floor's rates. */
const RATE_COLUMNS =
  'rows | engine | workload | Quire req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | Quire / floor';

/** A markdown table: its `header` row (columns parted by ` | `), the separator row it implies, then `rows`. */
function table(header, rows) {
  return [`| ${header} |`, `|${'---|'.repeat(header.split(' | ').length)}`, ...rows];
}

/**
 * The SQLite floor's gets run again answering with Quire's whole answer (bench/get-answer-floor.mjs),
 * beside Quire's and the floor's own distinct gets: none when no run measured it.
 */
function answerLines(report) {
  const rows = report
    .filter((r) => r.systems.answerFloor && r.systems.quire?.distinct?.get && r.systems.floor?.distinct?.get)
    .map((r) => {
      const [q, f, a] = [r.systems.quire.distinct.get, r.systems.floor.distinct.get, r.systems.answerFloor];
      return `| ${label(r.n)} | ${fmt(q.rps)}${errors(q)} | ${micros(q.cpu?.server)} | ${fmt(f.rps)} | ${micros(f.cpu?.server)} | ${fmt(a.rps)}${errors(a)} | ${ms(a, 'p50')} | ${ms(a, 'p99')} | ${micros(a.cpu?.server)} | ${ratioText(ratioOf(q, f), f)} | ${ratioText(ratioOf(q, a), a)} |`;
    });
  if (rows.length === 0) return [];
  return [
    "Gets with Quire's answer (bench/get-answer-floor.mjs): the SQLite floor's distinct gets again, on its own rows and statement, answering with the object the spec gives a get and Quire sends (`time`, `total`, `columns`, `filters`, `preview_path`, `custom`, `meta`, the row's `schedule`) and Quire's headers (security headers, Server-Timing, ETag, Cache-Control): Quire's bytes but the timings, where the shared floor sends about a quarter of them. It tells the answer's own cost from Quire's engine and request path. Server µs: the server's CPU a get.",
    '',
    ...table(
      `rows | Quire get req/s | server µs | floor req/s | server µs | floor with Quire's answer req/s | p50 ms | p99 ms | server µs | Quire / floor | Quire / floor with Quire's answer`,
      rows,
    ),
    '',
  ];
}

/** The CPU table of the distinct runs, or nothing for runs from before it was measured. */
function cpuLines(rows) {
  if (rows.length === 0) return [];
  return [
    '### Where the CPU went',
    '',
    "CPU time a completed request cost, in µs, during each distinct run: the server's processes (`/proc/PID/stat`; Quire's `quire serve` and its server), PostgreSQL's processes (every `postgres` process on the machine, on PostgreSQL rows), and the load generator (autocannon, in the bench's own process), with the machine's busy cores (`/proc/stat`). All share the machine's cores. \"At the target\" is the target's rate (its ratio times the floor's rate where it is relative) times Quire's three costs: what that rate would take at this run's costs per request.",
    '',
    ...table(
      `rows | engine | workload | Quire req/s | server µs | PostgreSQL µs | load µs | busy cores | floor req/s | server µs | PostgreSQL µs | load µs | busy cores | at the target`,
      rows,
    ),
    '',
  ];
}

function peerLines(peer) {
  const lines = ['', `Peer: Directus 12 via ../shared/bench/peer-directus.sh, ${label(peer.n)} rows.`, ''];
  if (peer.error) return [...lines, `The peer run failed: ${peer.error}`];
  const rows = ['list', 'search', 'get', 'create'].map((workload) => {
    const r = peer.results[workload];
    return `| ${workload} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} |`;
  });
  lines.push(...table(`workload | Directus req/s | p50 ms | p99 ms`, rows));
  return [...lines, '', `Directus RSS after load: ${peer.results.memory.rss.toFixed(0)} MB.`];
}

function verdictLines(verdicts, engine, report) {
  const mine = verdicts.filter((v) => v.what.endsWith('(postgres)') === (engine === 'postgres'));
  if (mine.length === 0) return [];
  const met = mine.filter((v) => v.met).map((v) => v.what);
  const missed = mine.filter((v) => !v.met).map((v) => v.what);
  const own = report.filter((r) => r.systems.postgres).every((r) => r.systems.postgresFloor);
  const floor = own ? 'the PostgreSQL floor' : 'the SQLite floor where no PostgreSQL floor ran';
  const [prefix, note] = engine === 'postgres' ? ['PostgreSQL targets', ` (ratios against ${floor})`] : ['Targets', ''];
  return [
    `${prefix} met${note}: ${met.join(', ') || 'none'}.`,
    `${prefix} missed${note}: ${missed.join(', ') || 'none'}.`,
  ];
}

/** RESULTS.md: `header` lines, then distinct, cache, import/start/memory and peer tables, then verdicts. */
export function resultsMarkdown({ header, report, peer }) {
  const verdicts = [];
  const distinct = distinctRows(report, verdicts);
  const cache = cacheRows(report, verdicts);
  const extras = extraRows(report, verdicts);
  const lines = [
    '# Benchmark results',
    '',
    ...header,
    '',
    '"engine" is the database under Quire: SQLite (a file, the default) or PostgreSQL (`quire serve --database`, a throwaway database on the same machine). Each engine\'s row is compared with the floor on the same engine, the same naive server run once per size on its own copy of the rows: `limit-server.mjs` (better-sqlite3) for SQLite, `bench/floor-postgres.mjs` (node-postgres, a pool of 10, a throwaway database) for PostgreSQL.',
    '',
    '## Distinct requests (the engine)',
    '',
    'Every request different: seeded random choices (bench/distinct-workloads.mjs), the same sequence for Quire and the floor. search: a word of the data, two words or a 3-5 letter piece of a word; list: random status, order among published_at/title/id, random desc, limit=20, offset 0-4,000 by 20; get: random existing ids; mixed: 9 reads (search or list) to 1 create; create: every body different; update: PATCH of random existing ids, every body different. "Quire repeated URLs" is the share of Quire\'s GETs whose URL it had already been sent in that workload (warm-up included), which its cache may answer; the floor has no cache.',
    '',
    ...table(`${RATE_COLUMNS} | Quire repeated URLs | target`, distinct),
    '',
    ...answerLines(report),
    ...cpuLines(cpuRows(report)),
    '## Repeated URL (cache figures)',
    '',
    'One URL per workload, repeated: after the first request these measure the page and count caches, not the engine.',
    '',
    ...table(`${RATE_COLUMNS} | target`, cache),
    '',
    '## Import, start, memory',
    '',
    "Import: `quire import` into an empty database, with its process's wall time (it then builds and saves the search index for the server's first start, given apart; the rate is the rows' own, and of their time the table's indexes, built once after the rows, are given apart too) (on PostgreSQL `quire import --database`, or `quire copy` from the freshly imported SQLite file where that is marked). Start: from spawning `quire serve` to its first answer, to its first list with exact counts, and to its first search (a search waits for the in-memory search index, read back or built after start; the distinct runs start after it), with the search request's own time. Restarted: Quire started again after the workloads, on the search index its clean stop saved (on SQLite the first start, right after the import, has no saved index and builds it; on PostgreSQL `quire import` saved one for the first start): its first answer and first search. RSS: Quire's server process, and the floor's (on PostgreSQL the database server's memory is not counted, for either).",
    '',
    ...table(
      `rows | engine | Quire bulk import (rows/s) | Quire start to first answer | Quire start to first list (exact counts) | Quire start to first search | Quire restarted: first answer, first search | Quire RSS after load (highest) | floor RSS after load (highest)`,
      extras,
    ),
  ];
  if (peer) lines.push(...peerLines(peer));
  lines.push('', ...verdictLines(verdicts, 'sqlite', report), ...verdictLines(verdicts, 'postgres', report), '');
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = process.argv.slice(2).map((file) => JSON.parse(readFileSync(file, 'utf8')));
  // One run: its lines as written. Several: one list item per run.
  const header =
    runs.length === 1
      ? runs[0].header
      : runs.map((run) => `- ${run.report.map((r) => label(r.n)).join(', ')} rows: ${run.header.join(' ')}`);
  const peer = runs.find((run) => run.peer)?.peer ?? null;
  process.stdout.write(resultsMarkdown({ header, report: runs.flatMap((run) => run.report), peer }));
}
