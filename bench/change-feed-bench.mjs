// The change feed's paging: a built Quire server over a database holding N changes, read from
// since=0 to the end through GET /api/changes, `limit` at a time, as a site builder catching up
// reads it. It prints the changes read per second on each engine (the target: 1M changes
// at 50k changes/s or more).
//
//   node bench/change-feed-bench.mjs [--changes 1m] [--limit 1000] [--engines sqlite,postgres]
//
// Needs dist/ (node scripts/build.mjs). The changes are written straight into the feed's table in
// one statement, so only the reading is timed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { PG_ADMIN_URL, redact, throwawayDatabase, unreachableReason } from './postgres-bench.mjs';
import { log } from './processes.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
/** The rate the issue asks of the feed, changes per second. */
const TARGET_RATE = 50_000;

/** `10k`, `1m` or a plain number. */
export function parseCount(text) {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(String(text).trim());
  if (!match) throw new Error(`--changes: ${text} is not a count like 100k or 1m`);
  return Math.round(Number(match[1]) * { '': 1, k: 1e3, m: 1e6 }[match[2].toLowerCase()]);
}

/** Writes `count` changes into the feed of `database` in one statement. */
async function fillFeed(database, count) {
  const at = new Date().toISOString().replace('T', ' ').replace('Z', '000');
  if (database.engine.kind === 'postgres') {
    await sql`insert into quire_changes (at, table_name, row_id, action, changed_by)
      select ${at}, 'news', 'row-' || i, 'update', 'bench' from generate_series(1, ${count}::int) i`.execute(
      database.db,
    );
  } else {
    await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
      insert into quire_changes (at, table_name, row_id, action, changed_by)
      select ${at}, 'news', 'row-' || i, 'update', 'bench' from n`.execute(database.db);
  }
}

/**
 * Reads the whole feed of `origin` from since=0, `limit` a page: changes read, seconds taken, and
 * CPU seconds of this process (the server and its reader both: on a busy machine, the wall time
 * says more about the other processes than about the feed).
 */
async function readFeed(origin, limit) {
  let since = '0';
  let read = 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (;;) {
    const response = await fetch(`${origin}/api/changes?since=${encodeURIComponent(since)}&limit=${limit}`);
    if (response.status !== 200)
      throw new Error(`GET /api/changes answered ${response.status}: ${await response.text()}`);
    const page = await response.json();
    if (page.changes.length === 0) break;
    read += page.changes.length;
    since = page.next;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  return { read, seconds, cpuSeconds: (used.user + used.system) / 1e6 };
}

/** One engine: a server over a fresh database with `count` changes, the feed read to its end. */
export async function measureFeed({ engine, count, limit }) {
  const dist = (path) => import(pathToFileURL(join(repo, 'dist', 'server', path)).href);
  const { startServer } = await dist('server.js');
  const { parsePostgresUrl } = await dist('db/postgres/postgres-url.js');
  const dir = mkdtempSync(join(tmpdir(), 'quire-feed-bench-'));
  let throwaway = null;
  let server = null;
  try {
    let postgres = null;
    if (engine === 'postgres') {
      throwaway = await throwawayDatabase(PG_ADMIN_URL, 'feed');
      postgres = parsePostgresUrl(throwaway.url);
    }
    server = await startServer({
      dbFile: join(dir, 'feed.sqlite'),
      postgres,
      port: 0,
      host: '127.0.0.1',
      editorName: 'bench',
      backups: false,
      searchIndexDir: join(dir, 'search-indexes'),
      log: () => {},
    });
    const filled = process.hrtime.bigint();
    await fillFeed(server.database, count);
    log(`${engine}: ${count} changes written in ${(Number(process.hrtime.bigint() - filled) / 1e9).toFixed(1)} s`);
    const { read, seconds, cpuSeconds } = await readFeed(server.origin, limit);
    if (read !== count) throw new Error(`read ${read} changes of ${count}`);
    return { engine, count, limit, seconds, rate: read / seconds, cpuSeconds };
  } finally {
    await server?.close();
    await throwaway?.drop?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** RESULTS.md's section of the feed's runs (`measureFeed` results, or `{ engine, count, error }`). */
export function feedMarkdown(results) {
  if (results.length === 0) return '';
  const rows = results.map((result) =>
    result.error
      ? `| ${result.engine} | ${result.count} | failed: ${result.error} | | |`
      : `| ${result.engine} | ${result.count} | ${result.seconds.toFixed(2)} | ${Math.round(result.rate)} | ${result.cpuSeconds.toFixed(2)} |`,
  );
  return [
    '',
    '## Change feed',
    '',
    `GET /api/changes from since=0 to the end, 1000 a page, one reader (bench/change-feed-bench.mjs); target ${TARGET_RATE} changes/s. CPU: the server and its reader, one process.`,
    '',
    '| engine | changes | seconds | changes/s | CPU s |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      changes: { type: 'string', default: '1m' },
      limit: { type: 'string', default: '1000' },
      engines: { type: 'string', default: 'sqlite,postgres' },
    },
  });
  const count = parseCount(values.changes);
  const limit = Number(values.limit);
  for (const engine of values.engines.split(',')) {
    if (engine === 'postgres') {
      const reason = await unreachableReason();
      if (reason) {
        log(`postgres: skipped (${reason})`);
        continue;
      }
      log(`postgres: ${redact(PG_ADMIN_URL)}`);
    }
    const result = await measureFeed({ engine, count, limit });
    const verdict = result.rate >= TARGET_RATE ? 'meets' : 'below';
    console.log(
      `${engine}: ${result.count} changes in ${result.seconds.toFixed(2)} s, ${Math.round(result.rate)} changes/s ` +
        `(${limit} a page; ${verdict} the ${TARGET_RATE} changes/s target); ` +
        `${result.cpuSeconds.toFixed(2)} CPU s in this process (server and reader)`,
    );
  }
}
