// What a create or an update costs Quire without HTTP: the row service driven in this process, 16
// writes in flight as under the bench's 16 connections, on a database the bench (or `quire import`)
// made. It prints writes/s and the CPU each write took of this process (all its threads: SQLite's
// checkpoint worker too) and, for a local PostgreSQL, of the database's backends serving it. The HTTP
// requests' own cost is then what the bench's rate leaves over; the floor's whole create can be set
// against these figures to see what of the gap is physical.
//
//   npx tsx bench/write-costs.ts --db bench/.data/quire-100k/content.sqlite [--seconds 6] [--in-flight 16]
//   npx tsx bench/write-costs.ts --database postgres://postgres@127.0.0.1:5432/NAME
//
// It writes rows (creates add rows titled "Write cost N"): run it on a copy, or a bench database.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createApp } from '../server/app.js';
import { parseListQuery } from '../server/content/list-query.js';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../server/db/database.js';
import { parsePostgresUrl } from '../server/db/postgres/postgres-url.js';

/** One kind of write measured: writes a second, and the CPU each took. */
export interface WriteCost {
  done: number;
  perSecond: number;
  /** Microseconds of this process's CPU (all its threads) a write. */
  processUs: number;
  /** Microseconds of the PostgreSQL backends' CPU a write; null on SQLite or a server not on this machine. */
  backendsUs: number | null;
}

/** How long, how many in flight, and on which content type. */
export interface WriteCostOptions {
  type: string;
  seconds: number;
  inFlight: number;
}

/** Creates, then updates of existing rows, through the row service of an app over `database`. */
export async function measureWriteCosts(
  database: QuireDb,
  { type: slug, seconds, inFlight }: WriteCostOptions,
): Promise<{ create: WriteCost; update: WriteCost }> {
  const { services } = await createApp({ database, editorName: 'bench', log: () => {} });
  const type = services.registry.requireBySlug(slug);
  // A search waits for the in-memory search index a table's first read starts building: measured
  // while it builds, the writes would carry its cost (1,573 us a PostgreSQL create against 574).
  await services.rows.list(type, parseListQuery(type, { filter: 'search=a' }, services.registry));
  let k = 0;
  const fields = () => ({
    title: `Write cost ${k++} ${Math.random().toString(36).slice(2, 8)}`,
    status: STATUSES[k % STATUSES.length],
    published_at: '2024-03-04 05:06:07',
  });
  const measure = async (write: () => Promise<unknown>): Promise<WriteCost> => {
    const until = performance.now() + seconds * 1000;
    let done = 0;
    const writer = async () => {
      while (performance.now() < until) {
        await write();
        done++;
      }
    };
    const backendsBefore = await backendSeconds(database);
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    await Promise.all(Array.from({ length: inFlight }, writer));
    const elapsed = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const backendsAfter = await backendSeconds(database);
    const perWrite = (cpuSeconds: number) => Math.round((cpuSeconds / done) * 1e6);
    return {
      done,
      perSecond: Math.round(done / elapsed),
      processUs: perWrite((cpu.user + cpu.system) / 1e6),
      backendsUs: backendsBefore === null || backendsAfter === null ? null : perWrite(backendsAfter - backendsBefore),
    };
  };
  const create = await measure(() => services.rows.create(type, fields()));
  // Updates of rows that were there before (and of the ones just created, on a small table).
  const page = parseListQuery(type, { limit: '1000' }, services.registry);
  const ids = (await services.rows.list(type, page)).rows.map((row) => row.id);
  const update = await measure(() => services.rows.update(type, ids[k % ids.length] as string, fields()));
  return { create, update };
}

const STATUSES = ['draft', 'published', 'archived'];

/** The CPU seconds this database's PostgreSQL backends have used so far (null: SQLite, or not a local server). */
async function backendSeconds(database: QuireDb): Promise<number | null> {
  if (database.engine.kind !== 'postgres') return null;
  const { rows } = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database()`.execute(database.db);
  let ticks = 0;
  try {
    for (const { pid } of rows) {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
  } catch {
    return null;
  }
  return ticks / 100; // Linux's clock ticks (USER_HZ), 100 a second
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      db: { type: 'string' },
      database: { type: 'string' },
      type: { type: 'string', default: 'news' },
      seconds: { type: 'string', default: '6' },
      'in-flight': { type: 'string', default: '16' },
    },
  });
  if (!args.db === !args.database) {
    console.error(
      'usage: npx tsx bench/write-costs.ts --db FILE | --database postgres://... [--seconds 6] [--in-flight 16]',
    );
    process.exit(2);
  }
  const database: QuireDb = args.database
    ? await openPostgresDatabase(parsePostgresUrl(args.database))
    : await openDatabase(args.db as string, { checkpointWorker: {} });
  try {
    const options = { type: args.type, seconds: Number(args.seconds), inFlight: Number(args['in-flight']) };
    for (const [name, cost] of Object.entries(await measureWriteCosts(database, options))) {
      const backends = cost.backendsUs === null ? '' : `, PostgreSQL's backends ${cost.backendsUs} us`;
      console.log(`${name}: ${cost.perSecond}/s; CPU a write: this process ${cost.processUs} us${backends}`);
    }
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
