import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { openSqliteFile } from '../db/sqlite/sqlite-dialect.js';
import { spawnServer } from './child-server.js';
import { type LoadReport, runLoad } from './load-run.js';

/** A load run against a real server process, with backups taken from another process meanwhile. */
export interface LoadDrillOptions {
  dbFile: string;
  clients: number;
  durationMs: number;
  /** Time between `quire backup`-style backups taken from this process during the run. */
  backupEveryMs: number;
}

/** What the drill saw. */
export interface LoadDrillReport {
  load: LoadReport;
  /** Backups completed during the run. */
  backups: number;
  /** What the server process wrote to stderr (its unexpected-error log). */
  serverErrors: string;
  /** Rows the API counted after the run, and rows in the table. */
  apiTotal: number;
  tableTotal: number;
}

/** Runs the load against a fresh server process, then counts rows both ways. */
export async function runLoadDrill(options: LoadDrillOptions): Promise<LoadDrillReport> {
  const server = await spawnServer(options.dbFile);
  let backups = 0;
  let stopBackups = false;
  try {
    const backupLoop = (async () => {
      while (!stopBackups) {
        await new Promise((resolve) => setTimeout(resolve, options.backupEveryMs));
        if (stopBackups) break;
        await backupFile(options.dbFile);
        backups++;
      }
    })();
    const load = await runLoad({ api: server.api, clients: options.clients, durationMs: options.durationMs });
    stopBackups = true;
    await backupLoop;
    const list = await fetch(`${server.api}/cms/news?limit=0`);
    const apiTotal = ((await list.json()) as { total: number }).total;
    const raw = openSqliteFile(options.dbFile, { readonly: true });
    const tableTotal = (raw.prepare('select count(*) as n from news').get() as { n: number }).n;
    raw.close();
    return { load, backups, serverErrors: server.stderr(), apiTotal, tableTotal };
  } finally {
    stopBackups = true;
    await server.kill('SIGTERM');
  }
}
