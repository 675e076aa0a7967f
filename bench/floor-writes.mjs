// The floor with updates, for the distinct update workload:
//
//   node bench/floor-writes.mjs FILE PORT N
//
// runs ../shared/bench/limit-server.mjs (copied to bench/.floor/ so it finds better-sqlite3 here) with
// one addition: PUT and PATCH /api/cms/news/:id, done as naively as its create (one prepared UPDATE of
// the fields given, synchronous=FULL, the row read back). The shared file answers list (order, desc,
// limit, offset), search, get and create already and stays unchanged: its request handler is wrapped
// before it starts.
import http from 'node:http';
import Database from 'better-sqlite3';

const [, , file = '/tmp/limit.db'] = process.argv;
const FIELDS = ['title', 'status', 'published_at'];

let statements = null;
/** A second connection to the floor's file, opened at the first update (the floor creates and loads it first). */
function prepared() {
  if (!statements) {
    const db = new Database(file);
    db.pragma('synchronous = FULL');
    statements = {
      update: db.prepare(
        `update news set ${FIELDS.map((f) => `${f} = coalesce(?, ${f})`).join(', ')}, updated_at = ? where id = ?`,
      ),
      byId: db.prepare('select * from news where id = ?'),
    };
  }
  return statements;
}

function send(res, code, body) {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function update(req, res, id) {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    const form = new URLSearchParams(body);
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '000');
    const { update, byId } = prepared();
    const { changes } = update.run(...FIELDS.map((f) => form.get(f)), now, id);
    if (changes === 0) return send(res, 404, { error: 'not found' });
    const row = byId.get(id);
    send(res, 200, { id, rows: [{ ...row, meta: row.meta ? JSON.parse(row.meta) : null }] });
  });
}

const createServer = http.createServer;
http.createServer = (handler) =>
  createServer((req, res) => {
    const match = /^\/api\/cms\/news\/([^/?]+)(?:\?|$)/.exec(req.url);
    if (match && (req.method === 'PUT' || req.method === 'PATCH'))
      return update(req, res, decodeURIComponent(match[1]));
    return handler(req, res);
  });
await import('./.floor/limit-server.mjs');
