/**
 * A load run: many concurrent clients, each sending one request after another for a fixed time,
 * mixing reads (lists with filters and search, single rows) and writes (create, update, delete).
 * Counts answers by status and collects anything a client must never see: a 5xx, a connection
 * error, or SQLite's busy/locked error text.
 */

/** How to load the server. */
export interface LoadOptions {
  /** API base, `http://127.0.0.1:PORT/api`. */
  api: string;
  clients: number;
  durationMs: number;
}

/** What the clients saw. */
export interface LoadReport {
  requests: number;
  reads: number;
  writes: number;
  byStatus: Record<number, number>;
  /** Answers with status >= 500, and requests that got no answer at all. */
  failures: string[];
  /** Answers mentioning SQLITE_BUSY or "database is locked". */
  busy: string[];
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Runs the load and resolves with the report (no assertions here). */
export async function runLoad({ api, clients, durationMs }: LoadOptions): Promise<LoadReport> {
  const report: LoadReport = { requests: 0, reads: 0, writes: 0, byStatus: {}, failures: [], busy: [], p50: 0, p99: 0 };
  const latencies: number[] = [];
  const deadline = Date.now() + durationMs;

  const send = async (method: string, path: string, body?: string): Promise<any> => {
    const started = performance.now();
    report.requests++;
    if (method === 'GET') report.reads++;
    else report.writes++;
    let status: number;
    let text: string;
    try {
      const response = await fetch(`${api}${path}`, { method, headers: body ? FORM : {}, body });
      status = response.status;
      text = await response.text();
    } catch (error) {
      report.failures.push(`${method} ${path}: no answer (${(error as Error).message})`);
      return null;
    }
    latencies.push(performance.now() - started);
    report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
    if (status >= 500) report.failures.push(`${method} ${path}: ${status} ${text.slice(0, 200)}`);
    if (/SQLITE_BUSY|database is locked/i.test(text)) report.busy.push(`${method} ${path}: ${text.slice(0, 200)}`);
    return status < 300 && text ? JSON.parse(text) : null;
  };

  const client = async (index: number) => {
    const mine: string[] = [];
    let sequence = 0;
    while (Date.now() < deadline) {
      const pick = Math.random();
      const tag = `c${index}-${sequence++}`;
      const form = (title: string) =>
        new URLSearchParams({ title, status: 'published', published_at: '2025-02-03 04:05:06' }).toString();
      if (pick < 0.35) {
        await send('GET', `/cms/news?limit=20&order=updated_at&desc=true`);
      } else if (pick < 0.5) {
        await send('GET', `/cms/news?filter=${encodeURIComponent(`search=c${index}`)}&limit=10`);
      } else if (pick < 0.6) {
        await send('GET', `/cms/news?filter=status=published&limit=5&offset=${sequence % 50}`);
      } else if (pick < 0.7 && mine.length > 0) {
        await send('GET', `/cms/news/${mine[sequence % mine.length]}`);
      } else if (pick < 0.85 || mine.length === 0) {
        const created = await send('POST', '/cms/news', form(`Load ${tag}`));
        if (created?.id) mine.push(created.id);
      } else if (pick < 0.95) {
        await send('PUT', `/cms/news/${mine[sequence % mine.length]}`, form(`Load ${tag} edited`));
      } else {
        const id = mine.splice(sequence % mine.length, 1)[0];
        await send('DELETE', `/cms/news/${id}`);
      }
    }
  };

  await Promise.all(Array.from({ length: clients }, (_, index) => client(index)));
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) => Math.round(latencies[Math.floor(fraction * (latencies.length - 1))] ?? 0);
  report.p50 = at(0.5);
  report.p99 = at(0.99);
  return report;
}
