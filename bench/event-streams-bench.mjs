// Event streams under load: a built Quire server (its own process) with N open GET /api/events
// streams, writes made one after another, and each write's delivery to every stream timed (from the
// write's request to the event's arrival). Beside it, the server's other requests (a list read,
// autocannon) are measured while the same writes go on, once with no stream open and once with the
// N streams open: the writes themselves cost the reads (each one changes the list they read), so
// both runs make them and only the streams differ. The issue's targets: 1,000 streams, p99 delivery under 200 ms, and the other requests'
// throughput within 10% of the figure without streams.
//
//   node bench/event-streams-bench.mjs [--streams 1000] [--writes 50] [--duration 8] [--database URL]
//
// Needs dist/ (node scripts/build.mjs). The streams are read by this process: its own event loop is
// part of each delivery time, so the figure is an upper bound of the server's.

import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { log, startScript } from './processes.mjs';
import { CONNECTIONS } from './workloads-bench.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const cli = join(repo, 'dist', 'server', 'cli.js');
/** The issue's bounds: delivery p99, and the share of throughput streams may cost. */
const TARGET_P99_MS = 200;
const TARGET_THROUGHPUT_SHARE = 0.9;

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: '1000' },
    writes: { type: 'string', default: '50' },
    duration: { type: 'string', default: '8' },
    database: { type: 'string' },
  },
});
const streamCount = Number(args.streams);
const writeCount = Number(args.writes);
const duration = Number(args.duration);

/** One open stream: calls `onChange(id)` for each change event's row id. */
function openStream(base, agent, onChange) {
  return new Promise((done, fail) => {
    const req = request(`${base}/api/events`, { agent, headers: { Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) return fail(new Error(`GET /api/events answered ${res.statusCode}`));
      res.setEncoding('utf8');
      let pending = '';
      res.on('data', (chunk) => {
        pending += chunk;
        let at = pending.indexOf('\n\n');
        while (at >= 0) {
          const block = pending.slice(0, at);
          pending = pending.slice(at + 2);
          const data = /^data: (.*)$/m.exec(block);
          if (data && /^event: change$/m.test(block)) onChange(JSON.parse(data[1]).id);
          at = pending.indexOf('\n\n');
        }
      });
      done(() => req.destroy());
    });
    req.once('error', fail);
    req.end();
  });
}

/** The other requests: a list read, `duration` seconds of autocannon; its req/s and p99. */
async function otherRequests(base) {
  const result = await autocannon({ url: `${base}/api/cms/news?limit=20`, connections: CONNECTIONS, duration });
  return { rps: Math.round(result.requests.average), p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/**
 * `writeCount` writes one after another, spread over a run of the other requests, each write's
 * start recorded by its row id in `sentAt`.
 */
async function writesDuring(base, sentAt, label) {
  const gap = (duration * 1000) / (writeCount + 1);
  for (let n = 0; n < writeCount; n++) {
    await new Promise((done) => setTimeout(done, gap));
    const started = performance.now();
    const id = await write(base, `${label} ${n}`);
    sentAt.set(id, started);
  }
}

/** Creates a news row; its id. */
async function write(base, n) {
  const response = await fetch(`${base}/api/cms/news`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: `Event bench ${n}`, status: 'draft', published_at: '2026-01-01 10:00:00' }),
  });
  if (response.status !== 201) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
  return String((await response.json()).id);
}

function percentile(sorted, share) {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

const dir = mkdtempSync(join(tmpdir(), 'quire-events-bench-'));
const where = args.database ? ['--database', args.database] : ['--db', join(dir, 'events.sqlite')];
const server = await startScript(
  'quire',
  cli,
  (port) => [
    'serve',
    ...where,
    '--port',
    String(port),
    '--no-backups',
    '--editor',
    'bench',
    '--event-streams',
    String(streamCount + 10),
    '--event-streams-per-credential',
    String(streamCount + 10),
  ],
  '/api/cms-content',
  60_000,
  repo,
);
const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const closers = [];
try {
  for (let n = 0; n < 20; n++) await write(server.base, `seed ${n}`);
  const [without] = await Promise.all([otherRequests(server.base), writesDuring(server.base, new Map(), 'alone')]);
  log(
    `without streams (${writeCount} writes): ${without.rps} req/s, p99 ${without.p99} ms${without.errors ? `, ${without.errors} errors` : ''}`,
  );

  const sentAt = new Map();
  const delays = [];
  const arrived = new Map();
  const onChange = (id) => {
    const sent = sentAt.get(id);
    if (sent === undefined) return;
    delays.push(performance.now() - sent);
    arrived.set(id, (arrived.get(id) ?? 0) + 1);
  };
  const opened = performance.now();
  for (let i = 0; i < streamCount; i += 50) {
    const batch = Array.from({ length: Math.min(50, streamCount - i) }, () => openStream(server.base, agent, onChange));
    closers.push(...(await Promise.all(batch)));
  }
  log(`${streamCount} streams open in ${Math.round(performance.now() - opened)} ms`);

  // The same writes, each now waited for on every stream.
  const [withStreams] = await Promise.all([otherRequests(server.base), writesDuring(server.base, sentAt, 'streamed')]);
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline && [...sentAt.keys()].some((id) => (arrived.get(id) ?? 0) < streamCount)) {
    await new Promise((done) => setTimeout(done, 20));
  }
  const missing = [...sentAt.keys()].reduce((sum, id) => sum + streamCount - (arrived.get(id) ?? 0), 0);
  const sorted = delays.sort((a, b) => a - b);
  const p50 = percentile(sorted, 0.5);
  const p99 = percentile(sorted, 0.99);
  const share = withStreams.rps / without.rps;
  log(
    `with ${streamCount} streams: ${withStreams.rps} req/s, p99 ${withStreams.p99} ms (${(100 * share).toFixed(1)}%)`,
  );
  console.log(
    `${streamCount} streams, ${writeCount} writes: delivery p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms ` +
      `(${p99 < TARGET_P99_MS ? 'meets' : 'above'} the ${TARGET_P99_MS} ms target)` +
      `${missing ? `, ${missing} deliveries missing` : ''}; other requests ${withStreams.rps} req/s with the ` +
      `streams, ${without.rps} without (${(100 * share).toFixed(1)}%: ` +
      `${share >= TARGET_THROUGHPUT_SHARE ? 'within' : 'beyond'} the 10% bound)`,
  );
} finally {
  for (const close of closers) close();
  agent.destroy();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
