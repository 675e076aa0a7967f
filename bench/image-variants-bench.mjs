// Image variants: first requests for 1, 4 and 16 new variants at once (1200 x 800 JPEGs to 800 px
// WebP), with the latency of the server's other requests (a list and a get) measured meanwhile
// against the same requests on an idle server; then a cached variant served beside the original
// file. The bounds: lists and gets keep their p99 within 2x while images are made (sharp
// works on libuv's threads, not the event loop), and a cached variant is served at least as fast
// as the original.
//
//   node bench/image-variants-bench.mjs [--rounds 3]
//
// Needs dist/ (node scripts/build.mjs) and sharp (a dependency) to make the test images.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { log, startScript } from './processes.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const cli = join(repo, 'dist', 'server', 'cli.js');

/** A 1200 x 800 photo-like JPEG (noise, so it compresses like a photo), different each call. */
async function photo() {
  const noise = { mean: 128, sigma: 60 };
  return sharp({ create: { width: 1200, height: 800, channels: 3, noise: { type: 'gaussian', ...noise } } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

async function upload(base, bytes) {
  const form = new FormData();
  form.append('file', new Blob([bytes]), 'photo.jpg');
  const response = await fetch(`${base}/api/uploads?duplicate=true`, { method: 'POST', body: form });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}: ${await response.text()}`);
  return (await response.json()).path;
}

/** Milliseconds of one GET, its body read. */
async function timed(url) {
  const started = performance.now();
  const response = await fetch(url);
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return performance.now() - started;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ms = (value) => `${value.toFixed(1)} ms`;

/** Other requests (a list, then a get) one after another until `done` settles: their latencies. */
async function otherRequests(base, done) {
  const latencies = [];
  let finished = false;
  done.then(
    () => {
      finished = true;
    },
    () => {
      finished = true;
    },
  );
  while (!finished) {
    latencies.push(await timed(`${base}/api/cms/news?limit=20`));
    latencies.push(await timed(`${base}/api/cms-content`));
  }
  return latencies;
}

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });
const rounds = Number(args.rounds);
const dir = mkdtempSync(join(tmpdir(), 'quire-image-bench-'));
const server = await startScript(
  'quire',
  cli,
  (port) => ['serve', '--db', join(dir, 'site.sqlite'), '--port', String(port), '--no-backups', '--demo'],
  '/api/cms-content',
  120_000,
  repo,
);
try {
  const { base } = server;
  // Idle: the other requests alone, for as long as a round of 16 would take at least.
  const idle = await otherRequests(base, new Promise((done) => setTimeout(done, 3000)));
  log(`idle: other requests p50 ${ms(percentile(idle, 50))}, p99 ${ms(percentile(idle, 99))} (${idle.length})`);
  for (const concurrent of [1, 4, 16]) {
    const firsts = [];
    const others = [];
    for (let round = 0; round < rounds; round++) {
      const paths = [];
      for (let n = 0; n < concurrent; n++) paths.push(await upload(base, await photo()));
      const started = performance.now();
      const making = Promise.all(paths.map((path) => timed(`${base}${path}?w=800&format=webp`)));
      const [latencies, other] = await Promise.all([making, otherRequests(base, making)]);
      firsts.push(...latencies);
      others.push(...other);
      log(`  ${concurrent} at once, round ${round + 1}: all made in ${ms(performance.now() - started)}`);
    }
    log(
      `${concurrent} first requests at once: p50 ${ms(percentile(firsts, 50))}, max ${ms(Math.max(...firsts))}; ` +
        `other requests meanwhile p50 ${ms(percentile(others, 50))}, p99 ${ms(percentile(others, 99))} ` +
        `(${(percentile(others, 99) / percentile(idle, 99)).toFixed(2)}x idle p99, ${others.length} requests)`,
    );
  }
  // Cached variant against the original file: the same number of sequential requests each.
  const path = await upload(base, await photo());
  await timed(`${base}${path}?w=800&format=webp`);
  const cached = [];
  const original = [];
  for (let n = 0; n < 300; n++) {
    cached.push(await timed(`${base}${path}?w=800&format=webp`));
    original.push(await timed(`${base}${path}`));
  }
  log(
    `cached 800 px WebP: p50 ${ms(percentile(cached, 50))}, p99 ${ms(percentile(cached, 99))}; ` +
      `original JPEG: p50 ${ms(percentile(original, 50))}, p99 ${ms(percentile(original, 99))}`,
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
