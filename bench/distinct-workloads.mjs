// The distinct-request workloads (../shared/bench/README.md): every request differs, so
// they measure the engine rather than a cache of repeated URLs. Choices come from a seeded PRNG, so
// Quire and the floor receive the same sequence of requests (each server's own ids for `get`, picked
// by the same sequence of row indexes).
//
//   search  a random keyword: a word of the data, two adjacent words, or a 3-5 letter piece of a word
//   list    random status, order among published_at/title/id, random desc, limit=20, offset 0-4,000 by 20
//   get     a random existing row
//   mixed   9 reads (search or list as above) to 1 create
//   create  POST, every body different (title of two data words and a number, random status and date)
//   update  PATCH of a random existing row, every body different as for create
import Database from 'better-sqlite3';

const STATUSES = ['published', 'draft', 'archived'];
const ORDERS = ['published_at', 'title', 'id'];
const CREATE_BODY = 'title=Bench+post&status=draft&published_at=2026-01-01+00%3A00%3A00';
export const DISTINCT_WORKLOADS = ['search', 'list', 'get', 'mixed', 'create', 'update'];
/** data.mjs's dates: whole seconds from 2021-01-01 00:00:00 UTC over five years. */
const DATES_FROM = Date.UTC(2021, 0, 1);
const DATES_SECONDS = 5 * 365 * 86_400;

/** mulberry32: a small seeded PRNG, numbers in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Words and adjacent word pairs of the titles of the generator's first `sample` rows (lower-cased,
 * the trailing row number left out): all of them occur in the data at every size from `sample` up.
 */
export function keywordsOf(newsRows, sample = 5000) {
  const words = new Set();
  const pairs = new Set();
  for (const { title } of newsRows(sample)) {
    const parts = title.toLowerCase().split(' ').slice(0, -1);
    parts.forEach((word, i) => {
      words.add(word);
      if (i > 0) pairs.add(`${parts[i - 1]} ${word}`);
    });
  }
  return { words: [...words].sort(), pairs: [...pairs].sort() };
}

/**
 * The ids of a Quire database's `news` rows in import order (the data file's order), read from the
 * file before the server starts. Null when the schema is not the one expected.
 */
export function quireIds(file) {
  const db = new Database(file, { readonly: true });
  try {
    const table = db.prepare("select table_name from quire_content_types where slug = 'news'").pluck().get();
    if (!table) return null;
    return db
      .prepare(`select id from "${table.replaceAll('"', '""')}" order by rowid`)
      .pluck()
      .all();
  } catch {
    return null;
  } finally {
    db.close();
  }
}

/** The floor numbers its rows 1..n in the data's order. */
export const floorIds = (n) => Array.from({ length: n }, (_, i) => String(i + 1));

const enc = encodeURIComponent;
const pick = (random, list) => list[Math.floor(random() * list.length)];

function keyword(random, { words, pairs }) {
  const kind = Math.floor(random() * 3);
  if (kind === 0) return pick(random, words);
  if (kind === 1) return pick(random, pairs);
  const letters = Array.from(pick(random, words));
  const length = Math.min(letters.length, 3 + Math.floor(random() * 3));
  const start = Math.floor(random() * (letters.length - length + 1));
  return letters.slice(start, start + length).join('');
}

const searchPath = (random, keywords) => `/api/cms/news?filter=${enc(`search=${keyword(random, keywords)}`)}&limit=20`;

function listPath(random) {
  const status = pick(random, STATUSES);
  const order = pick(random, ORDERS);
  const desc = random() < 0.5;
  const offset = 20 * Math.floor(random() * 201);
  return `/api/cms/news?filter=${enc(`status=${status}`)}&order=${order}${desc ? '&desc=true' : ''}&limit=20&offset=${offset}`;
}

/** A form body no other request of the stream sends: two words of the data and the stream's count `k`. */
function writeBody(random, { words }, k) {
  const title = `${pick(random, words)} ${pick(random, words)} ${k}`;
  const date = new Date(DATES_FROM + Math.floor(random() * DATES_SECONDS) * 1000);
  const published = date.toISOString().slice(0, 19).replace('T', ' ');
  return new URLSearchParams({ title, status: pick(random, STATUSES), published_at: published }).toString();
}

/**
 * The request stream of one workload: `next()` returns { method, path, body? }. The random choices
 * depend only on `seed` and the workload, never on the server, so every server sees the same sequence.
 */
export function requestStream(workload, seed, { keywords, ids }) {
  const random = mulberry32(seed);
  let k = 0;
  const read = () =>
    random() < 0.5 ? { method: 'GET', path: searchPath(random, keywords) } : { method: 'GET', path: listPath(random) };
  const next = {
    search: () => ({ method: 'GET', path: searchPath(random, keywords) }),
    list: () => ({ method: 'GET', path: listPath(random) }),
    get: () => ({ method: 'GET', path: `/api/cms/news/${enc(ids[Math.floor(random() * ids.length)])}` }),
    mixed: () => (k++ % 10 === 9 ? { method: 'POST', path: '/api/cms/news', body: CREATE_BODY } : read()),
    create: () => ({ method: 'POST', path: '/api/cms/news', body: writeBody(random, keywords, k++) }),
    update: () => {
      const id = ids[Math.floor(random() * ids.length)];
      return { method: 'PATCH', path: `/api/cms/news/${enc(id)}`, body: writeBody(random, keywords, k++) };
    },
  }[workload];
  if (!next) throw new Error(`unknown distinct workload ${workload}`);
  return next;
}

/**
 * autocannon options sending `stream`'s requests in order across all connections. `stats` counts the
 * GETs sent and those whose URL this server already had in this workload (warm-up included): a
 * repeat may be answered from a cache.
 */
export function autocannonOptions(base, stream, stats) {
  return {
    url: base,
    requests: [
      {
        setupRequest: (request) => {
          const next = stream();
          if (next.method === 'GET') {
            stats.gets++;
            if (stats.seen.has(next.path)) stats.repeats++;
            else stats.seen.add(next.path);
            return { ...request, method: 'GET', path: next.path };
          }
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded' },
            body: next.body,
          };
        },
      },
    ],
  };
}

const SEED = 1300; // measured runs; warm-ups use SEED + 1000 so they never send the measured sequence

/**
 * Runs the distinct workloads against one server: a few checked requests and a 1 s autocannon
 * warm-up from the warm-up stream, then `load` (the harness's measured run) on the measured stream.
 * `only`: the workloads to run, each on the stream it has in a whole run.
 */
export async function runDistinct({ base, keywords, ids, load, warmUp, after = () => {}, only = DISTINCT_WORKLOADS }) {
  const results = {};
  for (const [i, workload] of DISTINCT_WORKLOADS.entries()) {
    if (!only.includes(workload)) continue;
    const context = { keywords, ids };
    const stats = { gets: 0, repeats: 0, seen: new Set() };
    const warm = requestStream(workload, SEED + 1000 + i, context);
    for (let k = 0; k < 10; k++) {
      const next = warm();
      if (next.method === 'GET') stats.seen.add(next.path);
      const response = await fetch(`${base}${next.path}`, {
        method: next.method,
        body: next.body,
        headers: next.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
      });
      if (!response.ok)
        throw new Error(`${workload} ${next.method} ${next.path}: ${response.status} ${await response.text()}`);
      await response.arrayBuffer();
    }
    await warmUp(autocannonOptions(base, warm, stats));
    stats.gets = 0;
    stats.repeats = 0;
    const result = await load(autocannonOptions(base, requestStream(workload, SEED + i, context), stats));
    results[workload] = { ...result, repeatShare: stats.gets ? stats.repeats / stats.gets : 0 };
    after();
  }
  return results;
}
