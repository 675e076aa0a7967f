// Image variants in `npm run bench` (and alone): a built Quire server on SQLite with 16 distinct
// 1200 x 800 photo-like JPEGs, asked for new 800 px WebP variants by 1, 4 and 16 clients at once
// for a fixed time (every request a first request: each image at a width not asked before), while
// one more client reads a list and a row one after another; the same reads on the idle server are
// the baseline. The bounds: lists and gets keep their p99 within 2x while images are made,
// and a cached variant (one URL asked again: a cache hit, labelled as such) is served at least as
// fast as the original file.
//
//   node bench/image-variants-bench.mjs [--seconds 8] [--concurrency 1,4,16] [--load variants|cpu|images]
//
// `--load cpu` and `--load images` are controls: instead of variant clients, a process unrelated
// to Quire keeps one core busy at the image process's lower priority (IMAGE_WORK_NICENESS) for
// each run (`cpu`), or makes the same variants from the same originals with sharp at that priority
// and the idle policy (`images`: the pixel work's use of memory and caches as well as of a core).
// Where the other requests' p99 rises as much beside a control as beside the variants, the rise is
// the machine's (two cores shared with the client and everything else running), not Quire's.
//
// Needs dist/ (node scripts/build.mjs) and sharp (a dependency) to make the test images.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { log, startScript } from './processes.mjs';

const require = createRequire(import.meta.url);

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
/** Distinct originals; with the widths below, every variant request of a run is new. */
const IMAGES = 16;
/** Clients asking for new variants at once, per run. */
export const CONCURRENCY = [1, 4, 16];
/** What the issue allows the other requests' p99 while variants are made, as a multiple of the idle p99. */
export const P99_BOUND = 2;

/** A 1200 x 800 photo-like JPEG (noise, so it compresses like a photo), different each call. */
function photo() {
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
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** p50 and p99 of latencies, and how many. */
function spread(latencies) {
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: latencies.length };
}

/** The server's other requests (a list of 20, then one row) one after another until `until()`: their latencies. */
async function otherRequests(base, rowUrl, until) {
  const latencies = [];
  while (!until()) {
    latencies.push(await timed(`${base}/api/cms/news?limit=20`));
    latencies.push(await timed(rowUrl));
  }
  return latencies;
}

/**
 * The clients asking for variants, in a thread of their own: handling their answers on the thread
 * that times the other requests would count the client's own work as the server's latency.
 */
const CLIENTS_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { base, paths, concurrent, seconds, asked: first } = workerData;
let asked = first;
// Every image at 800 px, then at 799, and so on: distinct variants, never a cache hit.
const next = () => {
  const path = paths[asked % paths.length];
  const width = 800 - Math.floor(asked / paths.length);
  asked++;
  return base + path + '?w=' + width + '&format=webp';
};
const ends = performance.now() + seconds * 1000;
const firsts = [];
const client = async () => {
  while (performance.now() < ends) {
    const started = performance.now();
    const response = await fetch(next());
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error('a variant answered ' + response.status);
    firsts.push(performance.now() - started);
  }
};
Promise.all(Array.from({ length: concurrent }, client)).then(
  () => parentPort.postMessage({ firsts, asked }),
  (error) => parentPort.postMessage({ error: String(error) }),
);
`;

/** Runs `concurrent` variant clients for `seconds` in a worker thread: their latencies and the next variant number. */
function variantClients(workerData) {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(CLIENTS_SOURCE, { eval: true, workerData });
    worker.once('message', (message) => {
      if (message.error) reject(new Error(message.error));
      else resolvePromise(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

/** The image process's niceness (server/media/image-work-priority.ts IMAGE_WORK_NICENESS). */
const IMAGE_WORK_NICENESS = 10;

/** The control load: one core kept busy for `seconds` at the image threads' niceness, by a process that is not Quire. */
function cpuBurner(seconds) {
  const burn = `const ends = Date.now() + ${seconds * 1000}; while (Date.now() < ends);`;
  return controlProcess(['nice', '-n', String(IMAGE_WORK_NICENESS), process.execPath, '-e', burn]);
}

/**
 * The second control: the variants' own image work (each original decoded and made an 800 px WebP,
 * one at a time, with one libvips thread as in the server) for `seconds`, by a process that is not
 * Quire, all its threads at the image threads' niceness and idle scheduling policy. What the other
 * requests lose beside it is what the pixel work costs a machine whose cores and caches it shares
 * (memory and caches, not only CPU time); what they lose beyond it is the server's own doing.
 */
function imageBurner(seconds, paths, dir) {
  const work = `
    const sharp = require(${JSON.stringify(require.resolve('sharp'))});
    sharp.concurrency(1);
    sharp.cache(false);
    const files = ${JSON.stringify(paths.map((path) => join(dir, 'media', path.replace(/^\/media\//, ''))))};
    const { readFileSync } = require('node:fs');
    const ends = Date.now() + ${seconds * 1000};
    let n = 0;
    (async () => {
      while (Date.now() < ends) {
        const width = 800 - Math.floor(n / files.length);
        await sharp(readFileSync(files[n++ % files.length])).rotate().resize(width).webp({ quality: 80 }).toBuffer();
      }
      process.stdout.write(String(n));
    })();`;
  return controlProcess([
    'chrt',
    '--idle',
    '0',
    'nice',
    '-n',
    String(IMAGE_WORK_NICENESS),
    process.execPath,
    '-e',
    work,
  ]);
}

/** Runs a control command to its end; answers as the variant clients do, with what it made (a count it printed). */
function controlProcess([command, ...commandArgs]) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'inherit'] });
    let printed = '';
    child.stdout.on('data', (data) => (printed += data));
    child.once('error', reject);
    child.once('exit', () => resolvePromise({ firsts: [], asked: 0, made: Number(printed) || 0 }));
  });
}

/**
 * One run: `concurrent` clients each asking for a new variant as soon as their last one came, for
 * `seconds`, beside the other requests (with `load` 'cpu' or 'images', a control load instead). `state.asked`
 * numbers the variants asked so far.
 */
async function generationRun(base, rowUrl, concurrent, seconds, paths, state, load, dir) {
  const ends = performance.now() + seconds * 1000;
  const until = () => performance.now() >= ends;
  const started = performance.now();
  const clients =
    load === 'cpu'
      ? cpuBurner(seconds)
      : load === 'images'
        ? imageBurner(seconds, paths, dir)
        : variantClients({ base, paths, concurrent, seconds, asked: state.asked });
  const others = await otherRequests(base, rowUrl, until);
  const { firsts, asked, made = firsts.length } = await clients;
  if (load === 'variants') state.asked = asked;
  const elapsed = (performance.now() - started) / 1000;
  return {
    concurrent,
    made,
    perSecond: made / elapsed,
    firsts: spread(firsts),
    others: spread(others),
  };
}

/**
 * The variant workload on a fresh SQLite server started from `cli` (`quire serve --demo`): the idle
 * reads, one generation run per CONCURRENCY, then a cache hit beside the original file.
 */
export async function measureVariants({ cli, cwd = repo, seconds = 8, concurrency = CONCURRENCY, load = 'variants' }) {
  const dir = mkdtempSync(join(tmpdir(), 'quire-image-bench-'));
  const server = await startScript(
    'quire',
    cli,
    (port) => ['serve', '--db', join(dir, 'site.sqlite'), '--port', String(port), '--no-backups', '--demo'],
    '/api/cms-content',
    120_000,
    cwd,
  );
  try {
    const { base } = server;
    const paths = [];
    for (let n = 0; n < IMAGES; n++) paths.push(await upload(base, await photo()));
    const list = await (await fetch(`${base}/api/cms/news?limit=1`)).json();
    const rowUrl = `${base}/api/cms/news/${list.rows[0].id}`;
    const state = { asked: 0 };
    await timed(`${base}${paths[0]}?w=64&format=webp`); // sharp and the routes warmed up
    // The other requests warmed up too (compiled, their pages read): else the first idle p99 holds that.
    const warmEnds = performance.now() + 2000;
    await otherRequests(base, rowUrl, () => performance.now() >= warmEnds);
    const runs = [];
    for (const concurrent of concurrency) {
      // The idle reads just before each run: on a shared machine the load of other processes drifts.
      const idleEnds = performance.now() + seconds * 1000;
      const idle = spread(await otherRequests(base, rowUrl, () => performance.now() >= idleEnds));
      const result = { ...(await generationRun(base, rowUrl, concurrent, seconds, paths, state, load, dir)), idle };
      runs.push(result);
      log(
        `image variants: idle, other requests p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)} (${idle.count}); ` +
          `${concurrent} at once, ${result.made} made (${result.perSecond.toFixed(1)}/s), ` +
          `first requests p50 ${ms(result.firsts.p50)}, p99 ${ms(result.firsts.p99)}; other requests p50 ` +
          `${ms(result.others.p50)}, p99 ${ms(result.others.p99)} (${(result.others.p99 / idle.p99).toFixed(2)}x idle)`,
      );
    }
    // A cache hit (one URL asked again) against the original file, alternating, the same count each.
    const hitUrl = `${base}${paths[0]}?w=800&format=webp`;
    const cached = [];
    const original = [];
    for (let n = 0; n < 500; n++) {
      cached.push(await timed(hitUrl));
      original.push(await timed(`${base}${paths[0]}`));
    }
    const hit = { cached: spread(cached), original: spread(original) };
    log(
      `image variants: cache hit p50 ${ms(hit.cached.p50)}, p99 ${ms(hit.cached.p99)}; original ${ms(hit.original.p50)}, ${ms(hit.original.p99)}`,
    );
    return { seconds, images: IMAGES, runs, hit, load };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const ms = (value) => `${value.toFixed(1)} ms`;

/** RESULTS.md's section of the variant workload (`measureVariants`' result, or `{ error }`). */
export function variantsMarkdown(result) {
  if (!result) return '';
  const head = [
    '',
    '## Image variants',
    '',
    `SQLite, \`quire serve --demo\` with ${result.images ?? 16} distinct 1200 x 800 JPEGs (bench/image-variants-bench.mjs). ` +
      `Each run: N clients ask for new 800 px WebP variants (every request a first request: each image at a width not asked before) for ${result.seconds ?? '?'} s, ` +
      `while one client reads a list of 20 and one row in turn ("other requests"), measured for as long on the idle server just before; the bound is their p99 within ${P99_BOUND}x the idle p99.`,
    ...(result.load === 'cpu'
      ? [
          '',
          `Control (--load cpu): no variants; instead a process that is not Quire keeps one core busy at niceness ${IMAGE_WORK_NICENESS} during each run.`,
        ]
      : result.load === 'images'
        ? [
            '',
            `Control (--load images): no variant requests; instead a process that is not Quire makes 800 px WebPs of the same originals one after another, at niceness ${IMAGE_WORK_NICENESS} and the idle policy, during each run.`,
          ]
        : []),
    '',
  ];
  if (result.error) return [...head, `Failed: ${result.error}`, ''].join('\n');
  const { runs, hit } = result;
  return [
    ...head,
    '| variants at once | made | per s | first request p50 / p99 | idle p50 / p99 | other p50 / p99 meanwhile | p99 vs idle | other requests (idle, meanwhile) |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (run) =>
        `| ${run.concurrent} | ${run.made} | ${run.perSecond.toFixed(1)} | ${ms(run.firsts.p50)} / ${ms(run.firsts.p99)} | ` +
        `${ms(run.idle.p50)} / ${ms(run.idle.p99)} | ${ms(run.others.p50)} / ${ms(run.others.p99)} | ` +
        `${(run.others.p99 / run.idle.p99).toFixed(2)}x | ${run.idle.count}, ${run.others.count} |`,
    ),
    '',
    `Cache hit (the same 800 px WebP URL asked again, 500 times): p50 ${ms(hit.cached.p50)}, p99 ${ms(hit.cached.p99)}; ` +
      `the original JPEG (1200 x 800) alternately: p50 ${ms(hit.original.p50)}, p99 ${ms(hit.original.p99)}.`,
    '',
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '8' },
      concurrency: { type: 'string', default: CONCURRENCY.join(',') },
      load: { type: 'string', default: 'variants' },
    },
  });
  if (!['variants', 'cpu', 'images'].includes(values.load)) throw new Error('--load is variants, cpu or images');
  const result = await measureVariants({
    cli: join(repo, 'dist', 'server', 'cli.js'),
    seconds: Number(values.seconds),
    concurrency: values.concurrency.split(',').map(Number),
    load: values.load,
  });
  process.stdout.write(`${variantsMarkdown(result)}\n`);
}
