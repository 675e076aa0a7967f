// PostgreSQL for the benchmark: is one reachable, a throwaway database on it, the rows loaded
// into that database, its row ids, and the PostgreSQL floor (bench/floor-postgres.mjs) on a database of its own.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { run, startScript } from './processes.mjs';

/** Where the benchmark looks for PostgreSQL: QUIRE_BENCH_PG_URL, else the local default (trust auth). */
export const PG_ADMIN_URL = process.env.QUIRE_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL with its password hidden, for logs and RESULTS.md. */
export const redact = (url) => url.replace(/\/\/([^:/@]+):[^@/]*@/, '//$1:***@');

async function withClient(url, action) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await action(client);
  } finally {
    await client.end();
  }
}

/** Null when PostgreSQL answers at `url`, else the one-line reason it does not. */
export async function unreachableReason(url = PG_ADMIN_URL) {
  try {
    await withClient(url, (client) => client.query('select 1'));
    return null;
  } catch (error) {
    return `${redact(url)}: ${String(error.message || error.code || error).split('\n')[0]}`;
  }
}

/**
 * Vacuums and analyzes a freshly loaded database and checkpoints the server, so neither autovacuum
 * nor a checkpoint of the load's pages runs during later measurements (on the 2 shared cores they
 * took the SQLite runs of the same size down with them). The floor does the same to its own rows.
 */
export function settlePostgres(url) {
  return withClient(url, async (client) => {
    await client.query('vacuum analyze');
    await client.query('checkpoint');
  });
}

/** The server's version, as `show server_version` gives it. */
export function serverVersion(url = PG_ADMIN_URL) {
  return withClient(url, async (client) => (await client.query('show server_version')).rows[0].server_version);
}

/**
 * Drops the databases of earlier runs killed before they could drop their own: their process is gone
 * and nothing is connected to them (a database in use is left alone).
 */
async function dropLeftovers(client) {
  const { rows } = await client.query("select datname from pg_database where datname like 'quire\\_bench\\_%'");
  for (const { datname } of rows) {
    const pid = Number(/_(\d+)$/.exec(datname)?.[1]);
    if (pid && pid !== process.pid && !existsSync(`/proc/${pid}`)) {
      await client.query(`drop database if exists "${datname}"`).catch(() => {});
    }
  }
}

/**
 * A new empty database next to `adminUrl`'s, named for this process: `url` to serve it, `reset()` to
 * drop and create it again, `drop()` when done (it ends the connections left on it).
 */
export async function throwawayDatabase(adminUrl = PG_ADMIN_URL, label = 'bench') {
  const name = `quire_bench_${label}_${process.pid}`;
  const target = new URL(adminUrl);
  target.pathname = `/${name}`;
  const drop = () => withClient(adminUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
  const create = () => withClient(adminUrl, (client) => client.query(`create database "${name}"`));
  await withClient(adminUrl, dropLeftovers);
  await drop();
  await create();
  return {
    name,
    url: target.href,
    reset: async () => {
      await drop();
      await create();
    },
    drop,
  };
}

/**
 * Loads the rows of `file` into the empty database `db` with `quire import --database`, or, when that
 * fails (import on PostgreSQL is newer than copy), into a fresh `db` with `quire copy` from `sqliteDb`,
 * which must hold the same rows and nothing else. Returns how, the one-line reason import was not used,
 * the wall time and rows/s (the import's own figure when it prints one, else rows / wall time).
 */
export async function loadPostgres({ cli, cwd, db, file, sqliteDb, ensureSqlite, n }) {
  const started = performance.now();
  try {
    const output = await run(process.execPath, [cli, 'import', '--database', db.url, '--type', 'news', file], cwd);
    const seconds = (performance.now() - started) / 1000;
    const printed = Number(/\(([\d,]+) rows\/s\)/.exec(output)?.[1].replaceAll(',', '') ?? 0);
    return { via: 'import', seconds, rate: printed || n / seconds, output: output.trim() };
  } catch (error) {
    const reason = (error.output ?? error.message).trim().split('\n').at(-1) || 'quire import failed';
    await db.reset();
    await ensureSqlite();
    const copyStarted = performance.now();
    const output = await run(process.execPath, [cli, 'copy', '--from', sqliteDb, '--to', db.url], cwd);
    const seconds = (performance.now() - copyStarted) / 1000;
    return { via: 'copy', reason: redact(reason), seconds, rate: n / seconds, output: redact(output.trim()) };
  }
}

/** The ids of the `news` rows in `url`'s database, in id order (UUIDv7: creation order, so import order). */
export function postgresIds(url) {
  return withClient(url, async (client) => {
    const type = await client.query("select table_name from quire_content_types where slug = 'news'");
    if (type.rows.length === 0) return null;
    const table = `"${type.rows[0].table_name.replaceAll('"', '""')}"`;
    const ids = await client.query({ text: `select id from ${table} order by id collate "C"`, rowMode: 'array' });
    return ids.rows.map(([id]) => id);
  });
}

/**
 * Starts the PostgreSQL floor (`bench/floor-postgres.mjs`, which needs `bench/.floor/data.mjs`) on a
 * throwaway database `quire_bench_floor_<label>_<pid>`, where it loads the first `n` rows of data.mjs
 * itself: its `base` URL, its process `child`, and `stop()`, which stops it and drops its database. A run
 * killed before that leaves the database, which the next run's throwawayDatabase drops.
 */
export async function startPostgresFloor({ bench, n, label, adminUrl = PG_ADMIN_URL }) {
  const db = await throwawayDatabase(adminUrl, `floor_${label}`);
  try {
    const args = (port) => [db.url, String(port), String(n)];
    const floor = await startScript(
      'postgres floor',
      join(bench, 'floor-postgres.mjs'),
      args,
      '/api/cms/news?limit=1',
      600_000,
    );
    return {
      ...floor,
      stop: async () => {
        await floor.stop();
        await db.drop();
      },
    };
  } catch (error) {
    await db.drop();
    throw error;
  }
}
