// The tables of bench/RESULTS.md from the figures of bench/run-bench.mjs.
//
//   node bench/report.mjs bench/.data/report-100k.json [bench/.data/report-1m.json ...] > RESULTS.md
//
// With several files (runs of different sizes), the tables hold every size and the header every run.
import { readFileSync } from 'node:fs';
import { DISTINCT_WORKLOADS } from './distinct-workloads.mjs';

/** Targets of issue 6, per workload (req/s; ratio to the floor where the target is relative). */
const TARGETS = {
  list: { 100000: 5000, 1000000: 5000 },
  search: { 100000: 3000, 1000000: 2000 },
  get: { ratio: 0.7 },
  create: { ratio: 0.7 },
};
/** Targets of issue 13 for the distinct-request workloads, per size (`all`: every size). */
const DISTINCT_TARGETS = {
  search: { 100000: { rps: 3000 }, 1000000: { rps: 500, p99: 100 } },
  list: { 1000000: { rps: 1000 } },
  get: { all: { ratio: 0.9 } },
  mixed: { 1000000: { ratio: 5 } },
};

export const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
const fmt = (x) => (x < 10 && !Number.isInteger(x) ? x.toFixed(1) : Math.round(x).toLocaleString('en-US'));
/** Fewer completed requests than this in a run: no ratio and no verdict on a ratio from it. */
const MIN_DONE = 20;
const few = (x) => x.completed !== undefined && x.completed < MIN_DONE;
const ratioOf = (q, f) => (few(q) || few(f) || f.rps <= 0 ? Number.NaN : q.rps / f.rps);
const ratioText = (ratio) => (Number.isNaN(ratio) ? `— (< ${MIN_DONE} done)` : ratio.toFixed(2));
const ms = (x, p) => (x.completed === 0 ? '—' : x[p]);
const done = (x) => (x.completed === undefined ? '' : ` (${fmt(x.completed)} done)`);

/** RESULTS.md: `header` lines, then distinct, cache, import/start/memory and peer tables, then verdicts. */
export function resultsMarkdown({ header, report, peer }) {
  const rows = [];
  const distinctRows = [];
  const verdicts = [];
  for (const r of report) {
    const q = r.systems.quire.distinct;
    const f = r.systems.floor.distinct;
    for (const workload of DISTINCT_WORKLOADS) {
      const ratio = ratioOf(q[workload], f[workload]);
      const target = DISTINCT_TARGETS[workload][r.n] ?? DISTINCT_TARGETS[workload].all;
      const goals = [];
      let met = null;
      if (target) {
        const checks = [
          [target.rps, `>= ${fmt(target.rps ?? 0)}`, q[workload].rps >= target.rps],
          [target.p99, `p99 <= ${target.p99} ms`, q[workload].p99 <= target.p99],
          [target.ratio, `>= ${target.ratio} x floor`, ratio >= target.ratio],
        ].filter(([wanted]) => wanted);
        goals.push(...checks.map(([, goal]) => goal));
        met = checks.every(([, , ok]) => ok);
        if (target.ratio && Number.isNaN(ratio)) met = null;
      }
      const errors = (x) =>
        !x.errors
          ? ''
          : x.timeouts === undefined
            ? ` (${fmt(x.errors)} errors)`
            : ` (${[x.timeouts && `${fmt(x.timeouts)} timeouts`, x.non2xx && `${fmt(x.non2xx)} non-2xx`, x.errors - x.timeouts - x.non2xx && `${fmt(x.errors - x.timeouts - x.non2xx)} errors`].filter(Boolean).join(', ')})`;
      const [a, b] = [q[workload], f[workload]];
      distinctRows.push(
        `| ${label(r.n)} | ${workload} | ${fmt(a.rps)}${done(a)}${errors(a)} | ${ms(a, 'p50')} | ${ms(a, 'p99')} | ${fmt(b.rps)}${done(b)}${errors(b)} | ${ms(b, 'p50')} | ${ms(b, 'p99')} | ${ratioText(ratio)} | ${(100 * q[workload].repeatShare).toFixed(0)} % | ${goals.join(', ')}${met === null ? '' : met ? ' ✓' : ' ✗'} |`,
      );
      if (met !== null) verdicts.push({ what: `distinct ${workload} ${label(r.n)}`, met });
    }
  }
  for (const r of report) {
    const q = r.systems.quire;
    const f = r.systems.floor;
    for (const workload of ['list', 'search', 'get', 'create']) {
      const ratio = ratioOf(q[workload], f[workload]);
      const target = TARGETS[workload];
      let goal = '';
      let met = null;
      if (target.ratio) {
        goal = `>= ${target.ratio} x floor`;
        met = Number.isNaN(ratio) ? null : ratio >= target.ratio;
      } else if (target[r.n]) {
        goal = `>= ${fmt(target[r.n])}`;
        met = q[workload].rps >= target[r.n];
      }
      rows.push(
        `| ${label(r.n)} | ${workload} | ${fmt(q[workload].rps)}${done(q[workload])} | ${ms(q[workload], 'p50')} | ${ms(q[workload], 'p99')} | ${fmt(f[workload].rps)}${done(f[workload])} | ${ms(f[workload], 'p50')} | ${ms(f[workload], 'p99')} | ${ratioText(ratio)} | ${goal}${met === null ? '' : met ? ' ✓' : ' ✗'} |`,
      );
      if (met !== null) verdicts.push({ what: `cache ${workload} ${label(r.n)}`, met });
    }
  }
  const extras = report.map((r) => {
    const q = r.systems.quire.memory;
    const f = r.systems.floor.memory;
    const startOk = r.n >= 1e6 ? (r.startMs <= 500 ? ' ✓' : ' ✗') : '';
    const rssOk = r.n >= 1e6 ? (q.rss <= 150 ? ' ✓' : ' ✗') : '';
    const importOk = r.importRate >= 100000 ? ' ✓' : ' ✗';
    if (r.n >= 1e6) verdicts.push({ what: 'start 1M', met: r.startMs <= 500 }, { what: 'RSS 1M', met: q.rss <= 150 });
    verdicts.push({ what: `import ${label(r.n)}`, met: r.importRate >= 100000 });
    return `| ${label(r.n)} | ${fmt(r.importRate)} (${r.importSeconds.toFixed(1)} s)${importOk} | ${r.startMs.toFixed(0)} ms${startOk} | ${r.firstListMs.toFixed(0)} ms | ${q.rss.toFixed(0)} MB${rssOk} (peak ${q.peak.toFixed(0)}) | ${f.rss.toFixed(0)} MB (peak ${f.peak.toFixed(0)}) |`;
  });

  const lines = [
    '# Benchmark results',
    '',
    ...header,
    '',
    '## Distinct requests (the engine)',
    '',
    'Every request different: seeded random choices (bench/distinct-workloads.mjs), the same sequence for Quire and the floor. search: a word of the data, two words or a 3-5 letter piece of a word; list: random status, order among published_at/title/id, random desc, limit=20, offset 0-4,000 by 20; get: random existing ids; mixed: 9 reads (search or list) to 1 create. Targets of issue 13. "Quire repeated URLs" is the share of Quire\'s GETs whose URL it had already been sent in that workload (warm-up included), which its cache may answer; the floor has no cache.',
    '',
    '| rows | workload | Quire req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | Quire / floor | Quire repeated URLs | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...distinctRows,
    '',
    '## Repeated URL (cache figures)',
    '',
    'One URL per workload, repeated: after the first request these measure the page and count caches, not the engine. Targets of issue 6.',
    '',
    '| rows | workload | Quire req/s | p50 ms | p99 ms | floor req/s | p50 ms | p99 ms | Quire / floor | target |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    '## Import, start, memory',
    '',
    '| rows | Quire bulk import (rows/s) | Quire start to first answer | Quire start to first list (exact counts) | Quire RSS after load (highest) | floor RSS after load (highest) |',
    '|---|---|---|---|---|---|',
    ...extras,
  ];
  if (peer) {
    lines.push('', `Peer: Directus 12 via ../shared/bench/peer-directus.sh, ${label(peer.n)} rows.`, '');
    if (peer.error) lines.push(`The peer run failed: ${peer.error}`);
    else {
      lines.push('| workload | Directus req/s | p50 ms | p99 ms |', '|---|---|---|---|');
      for (const workload of ['list', 'search', 'get', 'create']) {
        const r = peer.results[workload];
        lines.push(`| ${workload} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} |`);
      }
      lines.push('', `Directus RSS after load: ${peer.results.memory.rss.toFixed(0)} MB.`);
    }
  }
  const met = verdicts.filter((v) => v.met).map((v) => v.what);
  const missed = verdicts.filter((v) => !v.met).map((v) => v.what);
  lines.push('', `Targets met: ${met.join(', ') || 'none'}.`, `Targets missed: ${missed.join(', ') || 'none'}.`, '');
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
