import { openSqliteFile } from '../db/sqlite/sqlite-dialect.js';
import { type ChildEntry, type ChildServer, spawnServer } from './child-server.js';

/**
 * The crash drill: real server processes killed with SIGKILL in the middle of concurrent writes,
 * round after round, each restart checked against a model of what the clients were told.
 *
 * Every row is created with a client-chosen id, so a write whose answer was lost to the kill is
 * still known. A row's model is its last acknowledged state plus, at most, one write in flight
 * (each client works on its own rows one request at a time): after the restart the row must be
 * in the acknowledged state or in the in-flight write's state, never anything else.
 */

/** How hard to drill. */
export interface CrashDrillOptions {
  dbFile: string;
  rounds: number;
  /** Concurrent writing clients per round. */
  clients: number;
  /** The kill comes at a random moment between these many milliseconds after writes start. */
  killAfterMs: [number, number];
  /** Which `quire` the server processes run (child-server.ts): the sources unless it says. */
  entry?: ChildEntry;
}

/** What the drill saw; the caller asserts on it. */
export interface CrashDrillReport {
  /** Writes answered with a 2xx, all rounds. */
  acknowledged: number;
  /** Writes whose answer the kill cut off. */
  unanswered: number;
  /** Answers that were neither 2xx nor a lost connection (should stay empty). */
  unexpectedAnswers: string[];
  /** Rows whose state after a restart matched no acknowledged or in-flight write. */
  mismatches: string[];
  /** `PRAGMA integrity_check` after each kill and at the end. */
  integrity: string[];
  /** What the server processes wrote to stderr (their unexpected-error log). */
  serverErrors: string;
  /** Rows the API reported after the last restart, and rows in the table. */
  apiTotal: number;
  tableTotal: number;
}

type RowState = { present: false } | { present: true; title: string };

interface RowModel {
  id: string;
  owner: number;
  acked: RowState;
  /** The state a write in flight would leave, if its answer never came. */
  inFlight?: RowState;
}

const PUBLISHED_AT = '2025-01-01 10:00:00';

/** Runs the drill; resolves with what it saw (no assertions here). */
export async function runCrashDrill(options: CrashDrillOptions): Promise<CrashDrillReport> {
  const rows = new Map<string, RowModel>();
  const report: CrashDrillReport = {
    acknowledged: 0,
    unanswered: 0,
    unexpectedAnswers: [],
    mismatches: [],
    integrity: [],
    serverErrors: '',
    apiTotal: -1,
    tableTotal: -1,
  };
  let sequence = 0;

  for (let round = 0; round < options.rounds; round++) {
    const server = await spawnServer(options.dbFile, [], options.entry);
    await reconcile(server, rows, report);
    let killed = false;
    const clients = Array.from({ length: options.clients }, async (_, client) => {
      while (!killed) {
        const done = await writeOnce(server, rows, client, `r${round}-c${client}-${sequence++}`, report);
        if (!done) break;
      }
    });
    const [low, high] = options.killAfterMs;
    await new Promise((resolve) => setTimeout(resolve, low + Math.random() * (high - low)));
    killed = true;
    await server.kill('SIGKILL');
    await Promise.all(clients);
    report.serverErrors += server.stderr();
    report.integrity.push(integrityOf(options.dbFile));
  }

  const server = await spawnServer(options.dbFile, [], options.entry);
  try {
    await reconcile(server, rows, report);
    const list = await fetch(`${server.api}/cms/news?limit=0`);
    report.apiTotal = ((await list.json()) as { total: number }).total;
  } finally {
    await server.kill('SIGTERM');
    report.serverErrors += server.stderr();
  }
  const raw = openSqliteFile(options.dbFile);
  try {
    report.tableTotal = (raw.prepare('select count(*) as n from news').get() as { n: number }).n;
    report.integrity.push(String(raw.pragma('integrity_check', { simple: true })));
  } finally {
    raw.close();
  }
  return report;
}

/** One write by one client on its own rows; false once the server is gone. */
async function writeOnce(
  server: ChildServer,
  rows: Map<string, RowModel>,
  client: number,
  tag: string,
  report: CrashDrillReport,
): Promise<boolean> {
  const own = [...rows.values()].filter((row) => row.owner === client && row.acked.present && !row.inFlight);
  const pick = Math.random();
  let row: RowModel;
  let method: string;
  let body: string | undefined;
  let after: RowState;
  if (own.length === 0 || pick < 0.6) {
    row = { id: `id-${tag}`, owner: client, acked: { present: false } };
    rows.set(row.id, row);
    method = 'POST';
    after = { present: true, title: `Title ${tag}` };
  } else if (pick < 0.85) {
    row = own[Math.floor(Math.random() * own.length)];
    method = 'PUT';
    after = { present: true, title: `Title ${tag}` };
  } else {
    row = own[Math.floor(Math.random() * own.length)];
    method = 'DELETE';
    after = { present: false };
  }
  if (after.present) {
    body = new URLSearchParams({ title: after.title, status: 'draft', published_at: PUBLISHED_AT }).toString();
  }
  row.inFlight = after;
  let status: number;
  try {
    const response = await fetch(`${server.api}/cms/news/${row.id}`, {
      method,
      headers: body ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      body,
    });
    status = response.status;
    await response.arrayBuffer();
  } catch {
    report.unanswered++;
    return false; // the answer is lost: the write stays in flight until the restart tells
  }
  if (status >= 200 && status < 300) {
    row.acked = after;
    report.acknowledged++;
  } else {
    report.unexpectedAnswers.push(`${method} ${row.id}: ${status}`);
  }
  row.inFlight = undefined;
  return true;
}

/** After a restart: every row must be in its acknowledged or in-flight state; the model adopts it. */
async function reconcile(server: ChildServer, rows: Map<string, RowModel>, report: CrashDrillReport): Promise<void> {
  const stored = new Map<string, string>();
  for (let offset = 0; ; offset += 1000) {
    const response = await fetch(`${server.api}/cms/news?limit=1000&offset=${offset}`);
    const page = (await response.json()) as { rows: { id: string; title: string }[] };
    for (const row of page.rows) stored.set(row.id, row.title);
    if (page.rows.length < 1000) break;
  }
  for (const row of rows.values()) {
    const title = stored.get(row.id);
    const actual: RowState = title === undefined ? { present: false } : { present: true, title };
    const same = (state: RowState | undefined) =>
      state !== undefined && state.present === actual.present && (!state.present || state.title === title);
    if (!same(row.acked) && !same(row.inFlight)) {
      report.mismatches.push(`${row.id}: found ${JSON.stringify(actual)}, acknowledged ${JSON.stringify(row.acked)}`);
    }
    row.acked = actual;
    row.inFlight = undefined;
  }
  for (const id of stored.keys()) {
    if (!rows.has(id)) report.mismatches.push(`${id}: a row nobody wrote`);
  }
}

function integrityOf(dbFile: string): string {
  const raw = openSqliteFile(dbFile);
  try {
    return String(raw.pragma('integrity_check', { simple: true }));
  } finally {
    raw.close();
  }
}
