// The localized workload, for bench/run-bench.mjs (or alone: node bench/localized-bench.mjs [--rows 2000]
// [--seconds 5] [--engine sqlite|postgres]): `quire serve` on a fresh SQLite database, or a throwaway
// PostgreSQL database it drops after (QUIRE_BENCH_PG_URL, else 127.0.0.1:5432), with three locales (en, de -> en,
// fr -> de, en), a type whose title, slug and body are localized and its unlocalized twin holding the
// same rows (de translated in two rows of three, fr in one of three: the rest falls back). Distinct
// requests, each from a seeded stream, in each locale: lists filtered and ordered by title, searches
// and gets by id; the twin's figures beside them (the issue's target: within 20%).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { mulberry32 } from './distinct-workloads.mjs';
import { PG_ADMIN_URL, settlePostgres, throwawayDatabase } from './postgres-bench.mjs';
import { freePort, log, startServer, stop } from './processes.mjs';

const CONNECTIONS = 16;
const LOCALES = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['de', 'en'] },
  ],
};
const WORDS = {
  en: ['harbour', 'beach', 'castle', 'garden', 'market', 'bridge', 'forest', 'river', 'tower', 'valley'],
  de: ['hafen', 'strand', 'burg', 'garten', 'markt', 'brücke', 'wald', 'fluss', 'turm', 'tal'],
  fr: ['port', 'plage', 'château', 'jardin', 'marché', 'pont', 'forêt', 'rivière', 'tour', 'vallée'],
};
const WORKLOADS = ['list', 'search', 'get'];

/** The columns of both types; `localized` marks title, slug and body of the localized one. */
function columnsOf(localized) {
  const mark = localized ? { localized: true } : {};
  return [
    { name: 'title', label: 'Title', type: 'text', required: true, ...mark },
    { name: 'slug', label: 'Slug', type: 'slug', required: false, parent: 'title', ...mark },
    { name: 'body', label: 'Body', type: 'markdown', required: false, ...mark },
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      required: false,
      options: [
        { id: 'draft', text: 'Draft' },
        { id: 'published', text: 'Published' },
      ],
    },
  ];
}

/** Row `i`'s title in `locale`: two words and its number, so every title is its own. */
function titleOf(locale, i) {
  const words = WORDS[locale];
  return `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]} ${i}`;
}

async function call(base, method, path, json) {
  const response = await fetch(`${base}/api${path}`, {
    method,
    headers: json === undefined ? {} : { 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Runs `work(i)` for 0..n-1, `width` at a time. */
async function inParallel(n, width, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** Loads `rows` rows into both types: en everywhere, de in two of three, fr in one of three. */
async function load(base, rows) {
  await call(base, 'PUT', '/locales', LOCALES);
  await call(base, 'POST', '/cms-content', { title: 'Plain', columns: columnsOf(false) });
  await call(base, 'POST', '/cms-content', { title: 'Places', columns: columnsOf(true) });
  const ids = { plain: [], places: [] };
  const started = performance.now();
  await inParallel(rows, 8, async (i) => {
    const en = { title: titleOf('en', i), body: `About ${titleOf('en', i)}`, status: i % 2 ? 'published' : 'draft' };
    ids.plain[i] = (await call(base, 'POST', '/cms/plain', en)).id;
    const id = (await call(base, 'POST', '/cms/places', en)).id;
    ids.places[i] = id;
    for (const locale of ['de', 'fr']) {
      if (locale === 'de' ? i % 3 === 2 : i % 3 !== 0) continue;
      await call(base, 'PUT', `/cms/places/${id}?locale=${locale}`, {
        title: titleOf(locale, i),
        body: `Über ${titleOf(locale, i)}`,
      });
    }
  });
  log(`localized: ${rows} rows in each type in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return ids;
}

/** The request stream of one workload on `type` in `locale` (null: no locale parameter). */
function streamOf(workload, type, locale, ids, seed) {
  const random = mulberry32(seed);
  const words = WORDS[locale ?? 'en'];
  const inLocale = locale === null ? '' : `locale=${locale}&`;
  return () => {
    const word = words[Math.floor(random() * words.length)];
    if (workload === 'get')
      return `/api/cms/${type}/${ids[Math.floor(random() * ids.length)]}${inLocale ? `?${inLocale.slice(0, -1)}` : ''}`;
    if (workload === 'search') {
      const keyword = `${word} ${Math.floor(random() * 1000)}`;
      return `/api/cms/${type}?${inLocale}filter=${encodeURIComponent(`search=${keyword}`)}&limit=20`;
    }
    // From a title's first word and a number: thousands of distinct ranges, few repeated (the read cache keeps pages).
    const from = `${word} ${Math.floor(random() * 1000)}`;
    const status = random() < 0.5 ? 'published' : 'draft';
    return `/api/cms/${type}?${inLocale}filter=${encodeURIComponent(`title>=${from}`)}&filter=status%3D${status}&order=title&limit=20&offset=${Math.floor(random() * 5) * 20}`;
  };
}

/** One autocannon run of `seconds` on the stream: req/s, latency p50/p99 (ms), errors. */
async function measure(base, stream, seconds) {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [{ setupRequest: (request) => ({ ...request, method: 'GET', path: stream() }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/** The engines the workload runs on, as `--engine` and run-bench's `--engines` name them. */
export const LOCALIZED_ENGINES = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

/**
 * The localized workload on `engine` (`sqlite` or `postgres`): `{ engine, rows, seconds, results }`,
 * results keyed by workload then by system (`plain`, `en`, `de`, `fr`). `cli`: the built
 * dist/server/cli.js; `repo`: where it runs.
 */
export async function measureLocalized({ cli, repo, rows, seconds, engine = 'sqlite' }) {
  if (!LOCALIZED_ENGINES[engine])
    throw new Error(`engine ${engine}: use ${Object.keys(LOCALIZED_ENGINES).join(' or ')}`);
  const folder = mkdtempSync(join(os.tmpdir(), 'quire-localized-bench-'));
  const database = engine === 'postgres' ? await throwawayDatabase(PG_ADMIN_URL, 'localized') : null;
  const where = database ? ['--database', database.url] : ['--db', join(folder, 'content.sqlite')];
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serveArgs = [cli, 'serve', ...where, '--port', String(port), '--no-backups'];
  let quire = null;
  try {
    quire = await startServer(
      'quire',
      process.execPath,
      [...serveArgs, '--editor', 'bench'],
      `${base}/api/cms-content`,
      60_000,
      repo,
    );
    const ids = await load(base, rows);
    // Autovacuum or a checkpoint of the load's pages would otherwise run during the measurements.
    if (database) await settlePostgres(database.url);
    const systems = [
      ['plain', 'plain', null],
      ['en', 'places', 'en'],
      ['de', 'places', 'de'],
      ['fr', 'places', 'fr'],
    ];
    const results = {};
    for (const [w, workload] of WORKLOADS.entries()) {
      results[workload] = {};
      for (const [s, [name, type, locale]] of systems.entries()) {
        const typeIds = ids[type];
        await measure(base, streamOf(workload, type, locale, typeIds, 9000 + w * 10 + s), 1);
        results[workload][name] = await measure(
          base,
          streamOf(workload, type, locale, typeIds, 1300 + w * 10 + s),
          seconds,
        );
        const got = results[workload][name];
        log(
          `localized ${workload} ${name}: ${got.rps.toFixed(0)} req/s, p50 ${got.p50} ms, p99 ${got.p99} ms, ${got.errors} errors`,
        );
      }
    }
    return { engine, rows, seconds, results };
  } finally {
    if (quire) await stop(quire.child);
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * The localized figures as Markdown, a table per engine (`measureLocalized` results, or
 * `{ engine, error }`), each locale's beside the unlocalized twin's.
 */
export function localizedMarkdown(runs) {
  return runs.map(engineMarkdown).join('');
}

function engineMarkdown(localized) {
  const engine = LOCALIZED_ENGINES[localized.engine];
  if (localized.error) return `\n## Localized content (${engine})\n\nFailed: ${localized.error}\n`;
  const lines = [
    '',
    `## Localized content (${engine}, ${localized.rows} rows per type, ${localized.seconds} s per run, ${CONNECTIONS} connections, distinct requests)`,
    '',
    'Title, slug and body localized in en (default), de (-> en, two rows of three translated) and fr (-> de, en; one of three); "plain" is the same rows in a type without localized columns. req/s (p50 / p99 ms; share of plain).',
    '',
    '| workload | plain | en | de | fr |',
    '|---|---|---|---|---|',
  ];
  for (const [workload, bySystem] of Object.entries(localized.results)) {
    const plain = bySystem.plain.rps;
    const cell = (name) => {
      const got = bySystem[name];
      const share = name === 'plain' ? '' : `; ${Math.round((100 * got.rps) / plain)}%`;
      return `${got.rps.toFixed(0)} (${got.p50} / ${got.p99}${share})${got.errors ? `, ${got.errors} errors` : ''}`;
    };
    lines.push(`| ${workload} | ${['plain', 'en', 'de', 'fr'].map(cell).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '5' },
      engine: { type: 'string', default: 'sqlite' },
    },
  });
  const repo = join(new URL('.', import.meta.url).pathname, '..');
  const measured = await measureLocalized({
    cli: join(repo, 'dist', 'server', 'cli.js'),
    repo,
    rows: Number(values.rows),
    seconds: Number(values.seconds),
    engine: values.engine,
  });
  process.stdout.write(localizedMarkdown([measured]));
}
