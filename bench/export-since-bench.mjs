// Incremental export: a SQLite site of N rows (the bench's reference rows, through `quire import`)
// exported in full with `quire export`, then 10 rows changed through the API and exported again
// with `--since`, beside an export `--since` that finds nothing to do (a command's start, the site
// opened, the feed read). The bound: with 10 changed rows, an incremental export of a 100k
// site takes about the time of those 10 rows, far from the full export's.
//
//   node bench/export-since-bench.mjs [--rows 100k] [--changed 10]
//
// Needs dist/ (node scripts/build.mjs) and ../shared/bench/data.mjs (or QUIRE_SHARED_BENCH).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseCount } from './change-feed-bench.mjs';
import { log, run, startScript } from './processes.mjs';
import { dataFile, importSqlite } from './sqlite-bench.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const shared = resolve(process.env.QUIRE_SHARED_BENCH ?? join(repo, '..', 'shared', 'bench'));
const cli = join(repo, 'dist', 'server', 'cli.js');

/** Runs `quire export` with `extra` flags; its wall time in seconds and its summary line. */
async function timedExport(db, out, extra) {
  const started = performance.now();
  const output = await run(process.execPath, [cli, 'export', '--db', db, '--out', out, ...extra], repo);
  return { seconds: (performance.now() - started) / 1000, summary: output.trim().split('\n').pop() };
}

/** Changes `count` rows of `news` spread over the table, through a server on `db`. */
async function changeRows(db, count) {
  const server = await startScript(
    'quire',
    cli,
    (port) => ['serve', '--db', db, '--port', String(port), '--no-backups'],
    '/api/cms-content',
    120_000,
    repo,
  );
  try {
    const first = await (await fetch(`${server.base}/api/cms/news?limit=1&order=id`)).json();
    const step = Math.max(1, Math.floor(first.total / count));
    for (let n = 0; n < count; n++) {
      const page = await (await fetch(`${server.base}/api/cms/news?limit=1&offset=${n * step}&order=id`)).json();
      const id = page.rows[0].id;
      const response = await fetch(`${server.base}/api/cms/news/${id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Changed for the export bench ${n}` }),
      });
      if (response.status !== 200) throw new Error(`PATCH answered ${response.status}: ${await response.text()}`);
    }
  } finally {
    await server.stop();
  }
}

const { values: args } = parseArgs({
  options: { rows: { type: 'string', default: '100k' }, changed: { type: 'string', default: '10' } },
});
const rows = parseCount(args.rows);
const changed = Number(args.changed);
const { newsRows } = await import(pathToFileURL(join(shared, 'data.mjs')).href);
const dir = mkdtempSync(join(tmpdir(), 'quire-export-bench-'));
try {
  const file = await dataFile(dir, newsRows, rows);
  const { db } = await importSqlite({ cli, repo, dataDir: dir, n: rows, file });
  const out = join(dir, 'export');
  const full = await timedExport(db, out, []);
  log(`full export: ${full.seconds.toFixed(2)} s (${full.summary})`);
  const idle = await timedExport(db, out, ['--since']);
  log(`--since, nothing changed: ${idle.seconds.toFixed(2)} s (${idle.summary})`);
  await changeRows(db, changed);
  const since = await timedExport(db, out, ['--since']);
  log(`--since, ${changed} rows changed: ${since.seconds.toFixed(2)} s (${since.summary})`);
  console.log(
    `${rows} rows: full export ${full.seconds.toFixed(2)} s; --since with ${changed} changed rows ` +
      `${since.seconds.toFixed(2)} s (${((100 * since.seconds) / full.seconds).toFixed(1)}% of the full export); ` +
      `--since with nothing changed ${idle.seconds.toFixed(2)} s`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
