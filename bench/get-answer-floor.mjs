// The floor's get with Quire's answer, to tell where the gap of gets comes from:
//
//   node bench/get-answer-floor.mjs FLOOR_DB PORT COLUMNS_JSON
//
// `GET /api/cms/news/:id` on the floor's file, answered the floor's way (node:http, one prepared
// statement, JSON.stringify of the whole body), but with the answer the spec gives a get and Quire
// sends: the `time` object, `total` of the type, `columns` (Quire's own, from COLUMNS_JSON: the
// harness saves them from Quire's list answer), `filters`, `preview_path`, `custom`, the `meta`
// object, the row's `schedule`, and Quire's headers (its security headers, Server-Timing, a strong
// ETag of the data's JSON, Cache-Control). The shared floor answers `{total, filtered, count, pk,
// rows}` and four headers, far fewer bytes. Set beside Quire and that floor in one run, it tells the
// answer's own cost apart from Quire's engine and request path.
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import Database from 'better-sqlite3';

/** The headers Quire's security middleware puts on every answer (server/http/security-headers.ts). */
const SECURITY_HEADERS = [
  'X-Content-Type-Options',
  'nosniff',
  'Cross-Origin-Resource-Policy',
  'same-origin',
  'X-Frame-Options',
  'DENY',
];

/** The answer's phases, as Quire's `time` object and Server-Timing header name them. */
const PHASES = ['total', 'init', 'filter', 'data', 'count', 'format'];

/**
 * A request handler answering gets of `news` rows in `db` with Quire's answer, `columns` being
 * the type's published column descriptors. Anything else is a 404.
 */
export function answerFloor(db, columns) {
  const byId = db.prepare('select * from news where id = ?');
  // Quire keeps the type's count rather than counting per read: counted once here.
  const total = db.prepare('select count(*) from news').pluck().get();
  return (req, res) => {
    const match = /^\/api\/cms\/news\/([^/?]+)$/.exec(req.url);
    const row = req.method === 'GET' && match ? byId.get(decodeURIComponent(match[1])) : undefined;
    if (!row) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
      res.end('{"error":"not found"}');
      return;
    }
    const started = performance.now();
    const stored = { ...row, meta: row.meta ? JSON.parse(row.meta) : null, schedule: null };
    // The members a single row's tag covers: all but the type's counts (see ROW_READ_UNTAGGED).
    const tagged = JSON.stringify({
      count: 1,
      pk: 'id',
      rows: [stored],
      columns,
      filters: [],
      preview_path: null,
      custom: false,
      meta: { title: row.title, description: '', keywords: '' },
    });
    const data = `{"total":${total},"filtered":1,${tagged.slice(1)}`;
    const took = Number((performance.now() - started).toFixed(3));
    const time = Object.fromEntries(PHASES.map((phase) => [phase, phase === 'total' || phase === 'format' ? took : 0]));
    const text = `{"time":${JSON.stringify(time)},${data.slice(1)}`;
    res.writeHead(200, [
      ...SECURITY_HEADERS,
      'Server-Timing',
      PHASES.map((phase) => `${phase};dur=${time[phase]}`).join(', '),
      // As Quire's tag: the data's JSON without the timings, the counts and its opening brace.
      'ETag',
      `"${hash('sha1', tagged.slice(1), 'hex').slice(0, 32)}"`,
      'Cache-Control',
      'no-cache',
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(Buffer.byteLength(text)),
    ]);
    res.end(text);
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [, , file, port, columnsFile] = process.argv;
  const db = new Database(file, { readonly: true });
  const columns = JSON.parse(readFileSync(columnsFile, 'utf8'));
  http
    .createServer(answerFloor(db, columns))
    .listen(Number(port), '127.0.0.1', () => console.log(`get-answer floor on ${port}`));
}
