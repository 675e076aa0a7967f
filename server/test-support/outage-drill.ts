/**
 * The outage drill: concurrent creates, updates and deletes through several Quire servers on one
 * PostgreSQL database while the database is stopped and started again, each client's writes
 * checked against a model of what it was told.
 *
 * Every row has a client-chosen id and belongs to one client, which writes it one request at a
 * time, so the model knows each row's last acknowledged state:
 * - a 2xx write is in that state afterwards, exactly;
 * - a 503 `database_unavailable` write changed nothing (the row stays as acknowledged before);
 * - a 503 with `detail.code` `outcome_unknown` (the connection ended during COMMIT) left the row
 *   wholly before or wholly after; the client leaves that row alone from then on.
 * Reads go along (every fourth request): 200, or 503 while the database is away. Any other
 * answer, or a request the server did not answer at all, is reported as unexpected.
 */

/** A server to write through. */
export interface DrillServer {
  api: string;
}

/** How to drill. */
export interface OutageDrillOptions {
  servers: readonly DrillServer[];
  /** Concurrent writing clients; each sends its requests to the servers in turn. */
  clients: number;
  /** Outages, one after another. */
  rounds: number;
  /** Writing with the database up, before each outage and after the last. */
  upMs: number;
  /** How long the database stays down each round (writes continue meanwhile); a range: a random time in it. */
  downMs: number | readonly [number, number];
  /** Stops the database in round `round` (resolves once it is down), and starts it (once it accepts connections). */
  stopDatabase(round: number): Promise<void>;
  startDatabase(): Promise<void>;
  /** How long a server may take to answer again after the database is back. */
  recoveryTimeoutMs: number;
}

/** The final state of a row as a server lists it. */
export type RowState = { present: false } | { present: true; title: string };

/** What the drill saw; the caller asserts on it. */
export interface OutageDrillReport {
  /** Writes answered 2xx. */
  acknowledged: number;
  /** Writes answered 503 database_unavailable, "not saved". */
  refused: number;
  /** Writes answered 503 with `outcome_unknown`. */
  unknown: number;
  /** 503 answers received while the database was down (each round should have some). */
  refusedWhileDown: number[];
  /** Answers that were none of the above, or no answer at all. */
  unexpected: string[];
  /** Per round and server, how long after the start it first answered a read with 200 (null: never). */
  recoveryMs: (number | null)[][];
  /** Rows whose final state matches no state the model allows. */
  mismatches: string[];
  /** Every row the first server lists at the end, by id (the caller compares with the others and the tables). */
  finalRows: Map<string, string>;
  /** The model's rows that were ever acknowledged present, and the titles the model allows for each. */
  allowed: Map<string, RowState[]>;
}

interface RowModel {
  id: string;
  owner: number;
  acked: RowState;
  /** The state a write answered `outcome_unknown` may have left (the row is then left alone). */
  maybe?: RowState;
}

const PUBLISHED_AT = '2025-01-01 10:00:00';
/** A word every drill title holds, with a letter that folds (`über` finds it). */
export const DRILL_WORD = 'Über';

/** Runs the drill; resolves with what it saw (no assertions here). */
export async function runOutageDrill(options: OutageDrillOptions): Promise<OutageDrillReport> {
  const rows = new Map<string, RowModel>();
  const report: OutageDrillReport = {
    acknowledged: 0,
    refused: 0,
    unknown: 0,
    refusedWhileDown: [],
    unexpected: [],
    recoveryMs: [],
    mismatches: [],
    finalRows: new Map(),
    allowed: new Map(),
  };
  const state = { down: false, stopping: false, round: 0, sequence: 0 };
  const clients = Array.from({ length: options.clients }, async (_, client) => {
    for (let turn = client; !state.stopping; turn++) {
      const server = options.servers[turn % options.servers.length];
      const status =
        turn % 4 === 3
          ? await readOnce(server, rows, client, report)
          : await writeOnce(server, rows, client, `c${client}-${state.sequence++}`, report);
      if (status === 503 && state.down) report.refusedWhileDown[state.round]++;
      // A down database answers at once: pause so the clients do not spin on the CPU others need.
      if (status !== null && status >= 500) await sleep(25);
    }
  });

  try {
    for (let round = 0; round < options.rounds; round++) {
      state.round = round;
      report.refusedWhileDown.push(0);
      await sleep(options.upMs);
      await options.stopDatabase(round);
      state.down = true;
      const [low, high] = typeof options.downMs === 'number' ? [options.downMs, options.downMs] : options.downMs;
      await sleep(low + Math.random() * (high - low));
      state.down = false;
      await options.startDatabase();
      const started = Date.now();
      report.recoveryMs.push(
        await Promise.all(options.servers.map((server) => firstRead(server, started, options.recoveryTimeoutMs))),
      );
    }
    await sleep(options.upMs);
  } finally {
    state.stopping = true;
    await Promise.all(clients);
  }

  report.finalRows = await listAll(options.servers[0]);
  for (const row of rows.values()) {
    const title = report.finalRows.get(row.id);
    const actual: RowState = title === undefined ? { present: false } : { present: true, title };
    const allowed = row.maybe ? [row.acked, row.maybe] : [row.acked];
    report.allowed.set(row.id, allowed);
    if (!allowed.some((each) => sameState(each, actual))) {
      report.mismatches.push(`${row.id}: found ${JSON.stringify(actual)}, allowed ${JSON.stringify(allowed)}`);
    }
  }
  for (const id of report.finalRows.keys()) {
    if (!rows.has(id)) report.mismatches.push(`${id}: a row nobody wrote`);
  }
  return report;
}

/** Every row a server lists (`id` to `title`), a page at a time. */
export async function listAll(server: DrillServer): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let offset = 0; ; offset += 1000) {
    const response = await fetch(`${server.api}/cms/news?limit=1000&offset=${offset}`);
    if (response.status !== 200) throw new Error(`listing rows: ${response.status} ${await response.text()}`);
    const page = (await response.json()) as { rows: { id: string; title: string }[] };
    for (const row of page.rows) found.set(row.id, row.title);
    if (page.rows.length < 1000) return found;
  }
}

/** One write by one client on its own rows; the answer's status, or null when there was none. */
async function writeOnce(
  server: DrillServer,
  rows: Map<string, RowModel>,
  client: number,
  tag: string,
  report: OutageDrillReport,
): Promise<number | null> {
  const own = [...rows.values()].filter((row) => row.owner === client && row.acked.present && !row.maybe);
  const pick = Math.random();
  let row: RowModel;
  let method: 'POST' | 'PUT' | 'DELETE';
  let after: RowState;
  if (own.length === 0 || pick < 0.5) {
    row = { id: `drill-${tag}`, owner: client, acked: { present: false } };
    rows.set(row.id, row);
    method = 'POST';
    after = { present: true, title: `${DRILL_WORD} ${tag}` };
  } else if (pick < 0.8) {
    row = own[Math.floor(Math.random() * own.length)];
    method = 'PUT';
    after = { present: true, title: `${DRILL_WORD} ${tag} (changed)` };
  } else {
    row = own[Math.floor(Math.random() * own.length)];
    method = 'DELETE';
    after = { present: false };
  }
  const body = !after.present
    ? undefined
    : JSON.stringify(
        method === 'POST'
          ? { title: after.title, status: 'draft', published_at: PUBLISHED_AT }
          : { title: after.title },
      );
  let status: number;
  let text: string;
  try {
    const response = await fetch(`${server.api}/cms/news/${row.id}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body,
    });
    status = response.status;
    text = await response.text();
  } catch (error) {
    report.unexpected.push(`${method} ${row.id}: no answer (${(error as Error).message})`);
    row.maybe = after;
    return null;
  }
  if (status >= 200 && status < 300) {
    row.acked = after;
    report.acknowledged++;
    return status;
  }
  const error = status === 503 ? parseError(text) : null;
  if (error?.code === 'database_unavailable' && error.detail?.code === 'outcome_unknown') {
    row.maybe = after;
    report.unknown++;
  } else if (error?.code === 'database_unavailable' && error.detail === undefined) {
    report.refused++;
  } else {
    report.unexpected.push(`${method} ${row.id}: ${status} ${text.slice(0, 300)}`);
    row.maybe = after; // unknown what it did: the final check allows either, the report fails the drill
  }
  return status;
}

/**
 * A read of the client's rows (a list, or one row it has): 200, or 503 database_unavailable while
 * the database is away; anything else (a 500, a 404 for an acknowledged row) is unexpected.
 */
async function readOnce(
  server: DrillServer,
  rows: Map<string, RowModel>,
  client: number,
  report: OutageDrillReport,
): Promise<number | null> {
  const own = [...rows.values()].find((row) => row.owner === client && row.acked.present && !row.maybe);
  const path = own ? `/cms/news/${own.id}` : `/cms/news?limit=5&filter=${encodeURIComponent(`search=c${client}-`)}`;
  try {
    const response = await fetch(`${server.api}${path}`);
    const text = await response.text();
    const unavailable = response.status === 503 && parseError(text)?.code === 'database_unavailable';
    if (response.status !== 200 && !unavailable) {
      report.unexpected.push(`GET ${path}: ${response.status} ${text.slice(0, 300)}`);
    }
    return response.status;
  } catch (error) {
    report.unexpected.push(`GET ${path}: no answer (${(error as Error).message})`);
    return null;
  }
}

/** Polls a read until it is 200: milliseconds since `started`, or null after `timeoutMs`. */
async function firstRead(server: DrillServer, started: number, timeoutMs: number): Promise<number | null> {
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(`${server.api}/cms/news?limit=1`);
      await response.arrayBuffer();
      if (response.status === 200) return Date.now() - started;
    } catch {
      // not expected (the server stays up); the timeout tells
    }
    await sleep(50);
  }
  return null;
}

function parseError(text: string): { code?: string; detail?: { code?: string } } | null {
  try {
    return (JSON.parse(text) as { error?: { code?: string; detail?: { code?: string } } }).error ?? null;
  } catch {
    return null;
  }
}

function sameState(a: RowState, b: RowState): boolean {
  return a.present === b.present && (!a.present || (b.present && a.title === b.title));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
