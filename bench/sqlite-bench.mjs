// SQLite for the benchmark: the reference rows as a file, Quire's SQLite database loaded from it with
// `quire import`, and the SQLite floor (../shared/bench/limit-server.mjs with bench/floor-writes.mjs's
// updates) on its own copy of the rows, and bench/get-answer-floor.mjs on that copy.
// bench/postgres-bench.mjs is the same for PostgreSQL.
import { execFileSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { log, run, startScript } from './processes.mjs';
import { label } from './report.mjs';

/**
 * Copies the shared floor (limit-server.mjs, data.mjs) from `shared` to `bench/.floor/`, where it
 * resolves better-sqlite3 and pg from this repository. A file already the same is left alone and a
 * changed one replaced by a rename, so a floor starting meanwhile (another test file) never reads half of one.
 */
export function copyFloor(shared, bench) {
  const floorDir = join(bench, '.floor');
  mkdirSync(floorDir, { recursive: true });
  for (const file of ['limit-server.mjs', 'data.mjs']) {
    const text = readFileSync(join(shared, file));
    const target = join(floorDir, file);
    if (existsSync(target) && readFileSync(target).equals(text)) continue;
    writeFileSync(`${target}.${process.pid}.tmp`, text);
    renameSync(`${target}.${process.pid}.tmp`, target);
  }
}

/** The reference rows (`newsRows` of data.mjs) as NDJSON in `dataDir`, written once per size. */
export async function dataFile(dataDir, newsRows, n) {
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

/** Removes a SQLite database with its WAL files, its saved search indexes and the backups folder beside it. */
export function removeDb(file) {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  rmSync(`${file}-search-index`, { recursive: true, force: true });
  rmSync(join(dirname(file), 'backups'), { recursive: true, force: true });
}

/** Where Quire's SQLite database of `n` rows lives in `dataDir`. */
export const sqliteDbOf = (dataDir, n) => join(dataDir, `quire-${label(n)}`, 'content.sqlite');

/**
 * From the summary line of `quire import` (or `quire copy`): `{ indexSeconds }` when it says how long
 * building and saving the search index for the server's first start took (part of the command's wall
 * time), and `{ tableIndexSeconds }` when it says how long the table's own indexes took to build after
 * the rows (part of the rows' time).
 */
export function indexSecondsOf(output) {
  const seconds = (pattern) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
  const indexSeconds = seconds(/search index(?:es of \d+ content types?)? saved for the next start in ([\d.]+) s/);
  const tableIndexSeconds = seconds(/indexes built after the rows in ([\d.]+) s/);
  return {
    ...(Number.isNaN(indexSeconds) ? {} : { indexSeconds }),
    ...(Number.isNaN(tableIndexSeconds) ? {} : { tableIndexSeconds }),
  };
}

/** Imports the rows of `file` into a fresh SQLite database: its file, rows/s (as printed) and wall time. */
export async function importSqlite({ cli, repo, dataDir, n, file }) {
  const db = sqliteDbOf(dataDir, n);
  removeDb(db);
  mkdirSync(dirname(db), { recursive: true });
  const started = performance.now();
  const output = await run(process.execPath, [cli, 'import', '--db', db, '--type', 'news', file], repo);
  const importSeconds = (performance.now() - started) / 1000;
  log(`sqlite: ${output.trim()}`);
  const importRate = Number(/\(([\d,]+) rows\/s\)/.exec(output)?.[1].replaceAll(',', '') ?? 0);
  return { db, importRate, importSeconds, ...indexSecondsOf(output), via: 'import' };
}

/**
 * Starts the SQLite floor (`bench/floor-writes.mjs`, which needs `bench/.floor/`) on a fresh file in
 * `dataDir`, where it loads the first `n` rows of data.mjs itself: its `base` URL, its process `child`,
 * its database `file` and `stop()`.
 */
export async function startSqliteFloor({ repo, dataDir, n }) {
  const floorDb = join(dataDir, `floor-${label(n)}.db`);
  removeDb(floorDb);
  log('starting the SQLite floor (it loads its own copy of the rows)');
  const script = join(repo, 'bench', 'floor-writes.mjs');
  const args = (port) => [floorDb, String(port), String(n)];
  return { ...(await startScript('floor', script, args, '/api/cms/news?limit=1', 600_000, repo)), file: floorDb };
}

/**
 * Starts bench/get-answer-floor.mjs on the SQLite floor's `file`: the floor's gets with Quire's
 * answer, `columns` being Quire's published columns of `news` (from Quire's own answer). Its
 * `base`, `child` and `stop()`.
 */
export async function startAnswerFloor({ repo, dataDir, file, columns }) {
  const columnsFile = join(dataDir, 'quire-news-columns.json');
  writeFileSync(columnsFile, JSON.stringify(columns));
  const script = join(repo, 'bench', 'get-answer-floor.mjs');
  return startScript(
    'get-answer floor',
    script,
    (port) => [file, String(port), columnsFile],
    '/api/cms/news/1',
    60_000,
    repo,
  );
}
