// Quire on one engine, for bench/run-bench.mjs: `quire serve` started on the database the bench
// loaded and timed to its first answer, list and search, every workload run against it
// (bench/workloads-bench.mjs), then started once more on the search index its clean stop saved.
import { quireIds } from './distinct-workloads.mjs';
import { postgresIds } from './postgres-bench.mjs';
import { childrenOf, freePort, log, settleDisk, startServer, stop } from './processes.mjs';
import { measure } from './workloads-bench.mjs';

/**
 * Starts `quire serve` on one engine's database and times its first answer, its first list (it has
 * to count every row, exact counts) and its first search: `{ quire, base, start, columns }`
 * (`columns`: the first list's, Quire's published columns of `news`). `cli`: the built
 * dist/server/cli.js; `repo`: this repository, where it runs.
 */
async function startQuire({ cli, repo }, engine, database) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const where = engine === 'sqlite' ? ['--db', database] : ['--database', database];
  const serveArgs = [cli, 'serve', ...where, '--port', String(port), '--no-backups', '--editor', 'bench'];
  await settleDisk();
  const quire = await startServer('quire', process.execPath, serveArgs, `${base}/api/cms-content`, 60_000, repo);
  try {
    const listUrl = `${base}/api/cms/news?filter=${encodeURIComponent('status=published')}&order=published_at&desc=true&limit=20`;
    const firstList = await (await fetch(listUrl)).text();
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
    return { quire, base, start, columns: JSON.parse(firstList).columns };
  } catch (error) {
    await stop(quire.child);
    throw error;
  }
}

/**
 * Starts `quire serve` on one engine's database, runs every workload against it and stops it. Start
 * figures go into `figures`. It then starts Quire again, on the search index its clean stop saved
 * (on SQLite the first start, after the import, has to build it; on PostgreSQL the import saved
 * one), and records that start as `restart`. `settings`: the run's (`workloads` and `startQuire`).
 * Returns the workloads' `results` and Quire's published `columns` of `news`.
 */
export async function measureQuire(settings, engine, database, figures, n) {
  const { quire, base, start, columns } = await startQuire(settings, engine, database);
  let results;
  try {
    Object.assign(figures, start);
    // Each server's own ids in the data's order; the same random indexes pick from them.
    const ids = (engine === 'sqlite' ? quireIds(database) : await postgresIds(database)) ?? (await apiIds(base));
    // `quire serve` is a supervisor; the server is its child process.
    const pids = [quire.child.pid, ...childrenOf(quire.child.pid)];
    results = await measure(settings, `quire ${engine}`, base, ids, n, pids, engine === 'postgres');
  } finally {
    const stopping = performance.now();
    await stop(quire.child);
    log(`${engine}: quire stopped in ${Math.round(performance.now() - stopping)} ms`);
    logServerMessages(engine, quire);
  }
  {
    log(`${engine}: quire again, on the search index its stop saved`);
    const again = await startQuire(settings, engine, database);
    await stop(again.quire.child);
    logServerMessages(engine, again.quire);
    figures.restart = again.start;
  }
  return { results, columns };
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

/** Every row id through the API, when the database could not be read directly (slow at 1M rows). */
async function apiIds(base) {
  const ids = [];
  for (let offset = 0; ; offset += 1000) {
    const body = await (await fetch(`${base}/api/cms/news?order=id&limit=1000&offset=${offset}`)).json();
    ids.push(...body.rows.map((row) => row.id));
    if (body.rows.length < 1000) return ids;
  }
}
