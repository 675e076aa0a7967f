// Search over rich text: a SQLite site with one type of N rows, each a title and a rich text body
// of about 2 kB (through `quire import`), searched for words found only in the bodies. Prints the
// import's time, the first search (it waits for the in-memory index's build) and the latency of
// searches once built, beside the same searches' count over the title alone, and creates of a
// row with such a body. The spec's types have no rich text: their figures are `npm run bench`'s.
//
//   node bench/richtext-search-bench.mjs [--rows 20k] [--searches 200] [--body markdown]
//
// `--body markdown` stores the same HTML in a markdown column, which search does not cover: the
// import's and creates' cost of the search text, and searches over the titles alone.
//
// Needs dist/ (node scripts/build.mjs).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCount } from './change-feed-bench.mjs';
import { log, run, startScript } from './processes.mjs';

const repo = resolve(dirname(new URL(import.meta.url).pathname), '..');
const cli = join(repo, 'dist', 'server', 'cli.js');

const WORDS = (
  'harbour lantern meadow copper violet falcon orchard granite willow ember quartz ' +
  'thistle marble cedar saffron juniper pebble tundra basalt lagoon'
).split(' ');

/** A deterministic word list of `n` words, the `i`th row's. */
function words(i, n) {
  const out = [];
  let seed = (i + 1) * 2654435761;
  for (let k = 0; k < n; k++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out.push(WORDS[seed % WORDS.length]);
  }
  return out;
}

/** About 2 kB of rich text: paragraphs with formatting and a link; every 100th row has `rareword`. */
function body(i) {
  const paragraphs = [];
  for (let p = 0; p < 8; p++) {
    const w = words(i * 8 + p, 24);
    paragraphs.push(
      `<p>${w.slice(0, 10).join(' ')} <strong>${w[10]}</strong> <em>${w[11]}</em> ` +
        `<a href="https://example.com/${w[12]}">${w.slice(13, 16).join(' ')}</a> ${w.slice(16).join(' ')}.</p>`,
    );
  }
  if (i % 100 === 0) paragraphs.push(`<p>The rareword ${i} closes it.</p>`);
  return paragraphs.join('');
}

async function json(response) {
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${response.status}: ${text}`);
  return JSON.parse(text);
}

function serve(db) {
  return startScript(
    'quire',
    cli,
    (port) => ['serve', '--db', db, '--port', String(port), '--no-backups'],
    '/api/cms-content',
    120_000,
    repo,
  );
}

/** Median and mean of `ms`. */
function summary(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const mean = ms.reduce((a, b) => a + b, 0) / ms.length;
  return `p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} ms, mean ${mean.toFixed(2)} ms`;
}

const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '20k' },
    searches: { type: 'string', default: '200' },
    body: { type: 'string', default: 'richtext' },
  },
});
const rows = parseCount(args.rows);
const searches = Number(args.searches);
const dir = mkdtempSync(join(tmpdir(), 'quire-richtext-bench-'));
try {
  const db = join(dir, 'content.sqlite');
  let server = await serve(db);
  await json(
    await fetch(`${server.base}/api/cms-content`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Pages',
        table: 'pages',
        columns: [
          { name: 'title', label: 'Title', type: 'text', required: true },
          { name: 'body', label: 'Body', type: args.body, required: false },
        ],
      }),
    }),
  );
  await server.stop();
  const file = join(dir, 'pages.ndjson');
  const lines = [];
  for (let i = 0; i < rows; i++)
    lines.push(JSON.stringify({ title: `Page ${i} ${words(i, 3).join(' ')}`, body: body(i) }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  log(`average body: ${Math.round(lines.reduce((n, line) => n + JSON.parse(line).body.length, 0) / rows)} characters`);
  const started = performance.now();
  await run(process.execPath, [cli, 'import', '--db', db, '--type', 'pages', file], repo);
  const importSeconds = (performance.now() - started) / 1000;
  server = await serve(db);
  try {
    const search = async (words) => {
      const t = performance.now();
      const answer = await json(
        await fetch(`${server.base}/api/cms/pages?filter=search=${encodeURIComponent(words)}&limit=20`),
      );
      return { ms: performance.now() - t, filtered: answer.filtered };
    };
    const first = await search('rareword');
    const rare = [];
    const common = [];
    for (let n = 0; n < searches; n++) {
      rare.push((await search(`rareword ${(n % (rows / 100)) * 100} `)).ms);
      common.push((await search(WORDS[n % WORDS.length].slice(0, 5))).ms);
    }
    const creates = [];
    for (let n = 0; n < 200; n++) {
      const t = performance.now();
      await json(
        await fetch(`${server.base}/api/cms/pages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Created ${n}`, body: body(n + 7) }),
        }),
      );
      creates.push(performance.now() - t);
    }
    console.log(
      `${rows} rows with ~2 kB ${args.body}: import ${importSeconds.toFixed(2)} s; first search ${first.ms.toFixed(0)} ms ` +
        `(${first.filtered} rows, waits for the index build); a word in 1 row: ${summary(rare)}; ` +
        `a word prefix in most rows (first 20 and counts): ${summary(common)}; create with a body: ${summary(creates)}`,
    );
  } finally {
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
