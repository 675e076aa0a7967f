// The floor on PostgreSQL, so Quire on PostgreSQL is measured against a floor on its own engine:
//
//   node bench/floor-postgres.mjs DATABASE_URL PORT N
//
// the same naive server as ../shared/bench/limit-server.mjs with the updates of bench/floor-writes.mjs,
// over node-postgres instead of better-sqlite3: node:http and a pg.Pool of 10 connections, nothing else.
// Same routes, same JSON fields, same exact `total` and `filtered` (a COUNT of each per list), search a
// scan of title and slug with ILIKE (text columns are `collate "C"`, so like SQLite's LIKE it folds ASCII
// letters only, and orders by code point as SQLite's BINARY does), ORDER BY any column with id as
// tie-breaker, LIMIT/OFFSET, creates with a random UUID and a slug, PUT/PATCH of the fields given. Every
// write commits on its own with synchronous_commit at its default (on). On an empty database it creates
// `news` with the SQLite floor's two indexes and loads the first N rows of data.mjs (copied to
// bench/.floor/ as for the SQLite floor), with the SQLite floor's ids ('1'..'N'), slugs and timestamps.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { newsRows } from './.floor/data.mjs';

const [, , url = 'postgres://postgres@127.0.0.1:5432/quire_bench_floor', port = '8702', n = '100000'] = process.argv;
const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on('error', () => {}); // an idle connection ended by the server; the pool opens another
const COLUMNS = new Set(['id', 'slug', 'title', 'status', 'published_at', 'created_at', 'updated_at']);
const FIELDS = ['title', 'status', 'published_at'];
const LOAD_BATCH = 10_000;

/** Creates and loads `news` unless the database has it: the SQLite floor's table, rows and indexes. */
async function ensureLoaded() {
  const { rows } = await pool.query("select to_regclass('news') is not null as exists");
  if (rows[0].exists) return;
  const text = 'text collate "C"';
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query(`create table news (id ${text} primary key, slug ${text} not null unique, title ${text} not null,
      status ${text} not null, published_at ${text} not null, meta text, created_at ${text} not null,
      updated_at ${text} not null, created_by ${text}, updated_by ${text})`);
    const now = '2026-11-22 10:00:00.000000';
    const insert = `insert into news select t.id, t.slug, t.title, t.status, t.published_at, null, $6, $6, 'bench', 'bench'
      from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as t(id, slug, title, status, published_at)`;
    let batch = [[], [], [], [], []];
    const flush = async () => {
      if (batch[0].length > 0) await client.query(insert, [...batch, now]);
      batch = [[], [], [], [], []];
    };
    let i = 0;
    for (const r of newsRows(+n)) {
      const slug = r.title
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[^a-z0-9]+/g, '-');
      for (const [column, value] of [String(++i), slug, r.title, r.status, r.published_at].entries())
        batch[column].push(value);
      if (batch[0].length === LOAD_BATCH) await flush();
    }
    await flush();
    // After the rows rather than before them as the SQLite floor does: the same indexes, built faster.
    await client.query('create index news_status_pub on news (status, published_at)');
    await client.query('create index news_pub on news (published_at)');
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
  // Statistics and the visibility map now rather than from autovacuum at some point during the runs.
  await pool.query('vacuum analyze news');
}

const names = new Map(); // naive but not wasteful: one prepared statement per query shape
const query = (text, values) => {
  let name = names.get(text);
  if (!name) {
    name = `floor_${names.size}`;
    names.set(text, name);
  }
  return pool.query({ name, text, values });
};
const parse = (r) => ({ ...r, meta: r.meta ? JSON.parse(r.meta) : null });
const now = () => new Date().toISOString().replace('T', ' ').replace('Z', '000');

// Lists the naive way: WHERE from the filters (equality; search= is an ILIKE scan of title and slug,
// with no escape character, as SQLite's LIKE has none), ORDER BY any column with id as tie-breaker,
// LIMIT/OFFSET, and a COUNT per request.
async function list(url) {
  const where = [];
  const args = [];
  for (const f of url.searchParams.getAll('filter')) {
    const i = f.indexOf('=');
    const k = f.slice(0, i);
    const v = f.slice(i + 1);
    if (k === 'search') {
      args.push(`%${v}%`);
      where.push(`(title ilike $${args.length} escape '' or slug ilike $${args.length} escape '')`);
    } else if (COLUMNS.has(k)) {
      args.push(v);
      where.push(`${k} = $${args.length}`);
    } else return null;
  }
  const order = url.searchParams.get('order') ?? 'id';
  if (!COLUMNS.has(order)) return null;
  const dir = url.searchParams.get('desc') === 'true' ? 'desc' : 'asc';
  const limit = +(url.searchParams.get('limit') ?? 100);
  const offset = +(url.searchParams.get('offset') ?? 0);
  if (!Number.isInteger(limit) || !Number.isInteger(offset)) return null;
  const w = where.length ? `where ${where.join(' and ')}` : '';
  const page = `select * from news ${w} order by ${order} ${dir}, id ${dir} limit $${args.length + 1} offset $${args.length + 2}`;
  const rows = (await query(page, [...args, limit, offset])).rows;
  const filtered = Number((await query(`select count(*) as c from news ${w}`, args)).rows[0].c);
  const total = Number((await query('select count(*) as c from news', [])).rows[0].c);
  return {
    time: {},
    total,
    filtered,
    count: rows.length,
    pk: 'id',
    rows: rows.map(parse),
    columns: [],
    filters: [],
    preview_path: null,
    custom: false,
  };
}

function readBody(req) {
  return new Promise((done, fail) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => done(body));
    req.on('error', fail);
  });
}

async function create(req) {
  const f = Object.fromEntries(new URLSearchParams(await readBody(req)));
  const id = randomUUID();
  const at = now();
  const slug = `${(f.title ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${id.slice(0, 8)}`;
  const { rows } = await query('insert into news values ($1, $2, $3, $4, $5, null, $6, $6, null, null) returning *', [
    id,
    slug,
    f.title,
    f.status,
    f.published_at,
    at,
  ]);
  return [201, { id, rows: [parse(rows[0])] }];
}

// As bench/floor-writes.mjs: one UPDATE of the fields given, the row read back (here by RETURNING).
async function update(req, id) {
  const form = new URLSearchParams(await readBody(req));
  const sets = FIELDS.map((f, i) => `${f} = coalesce($${i + 1}, ${f})`).join(', ');
  const values = [...FIELDS.map((f) => form.get(f)), now(), id];
  const at = `$${FIELDS.length + 1}`;
  const where = `$${FIELDS.length + 2}`;
  const { rows } = await query(`update news set ${sets}, updated_at = ${at} where id = ${where} returning *`, values);
  return rows.length ? [200, { id, rows: [parse(rows[0])] }] : [404, { error: 'not found' }];
}

async function answer(req, url) {
  const m = url.pathname.match(/^\/api\/cms\/news(?:\/([^/]+))?$/);
  if (!m) return [404, { error: 'not found' }];
  if (req.method === 'GET' && !m[1]) {
    const body = await list(url);
    return body ? [200, body] : [400, { error: 'bad filter or order' }];
  }
  if (req.method === 'GET') {
    const { rows } = await query('select * from news where id = $1', [decodeURIComponent(m[1])]);
    return rows.length
      ? [200, { total: 1, filtered: 1, count: 1, pk: 'id', rows: [parse(rows[0])] }]
      : [404, { error: 'not found' }];
  }
  if (req.method === 'POST' && !m[1]) return create(req);
  if ((req.method === 'PUT' || req.method === 'PATCH') && m[1]) return update(req, decodeURIComponent(m[1]));
  return [405, { error: 'method' }];
}

await ensureLoaded();
http
  .createServer((req, res) => {
    const send = ([code, body]) => {
      const s = JSON.stringify(body);
      res.writeHead(code, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(s),
      });
      res.end(s);
    };
    // The SQLite floor would stop on a failed statement (a create without a title); this one says so.
    answer(req, new URL(req.url, 'http://x')).then(send, (error) => send([500, { error: error.message }]));
  })
  .listen(+port, '127.0.0.1', () => console.log(`postgres floor on ${port}`));
