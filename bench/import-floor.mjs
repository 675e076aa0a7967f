// The floor of `quire import` on SQLite: the rows an import stored, loaded again into the same
// schema by bare better-sqlite3 the way the import loads an empty table (one transaction, a 512 MB
// page cache, one prepared INSERT per row, every index but the primary key's dropped and built after,
// the search insert trigger dropped for the load, a rollback journal, synchronous=FULL),
// without parsing, validation, slugs or ids. What is left is SQLite's own work for these rows and
// indexes: Quire's import can only come near it.
//
//   node bench/import-floor.mjs bench/.data/quire-100k/content.sqlite [--table news] [--repeat 3]
//
// Prints each phase (the fastest of the runs) and rows/s of the fastest run.
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: { table: { type: 'string', default: 'news' }, repeat: { type: 'string', default: '3' } },
});
if (positionals.length !== 1) {
  console.error('usage: node bench/import-floor.mjs QUIRE_DB [--table news] [--repeat 3]');
  process.exit(2);
}
const table = args.table;
const q = (name) => `"${name.replaceAll('"', '""')}"`;
const source = new Database(positionals[0], { readonly: true });
const columns = source.prepare('select name from pragma_table_info(?)').pluck().all(table);
const rows = source
  .prepare(`select ${columns.map(q).join(', ')} from ${q(table)} order by rowid`)
  .raw()
  .all();
// Everything of the table: itself, its search pending table, indexes and triggers, in an order that
// creates each after what it needs.
const schema = source
  .prepare(
    `select type, name, sql from sqlite_master where sql is not null
       and (tbl_name = ? or name like ? escape '\\')
     order by case type when 'table' then 0 when 'index' then 1 else 2 end, rowid`,
  )
  .all(table, `quire\\_fts\\_pending:${table}%`);
source.close();

const file = join(tmpdir(), `quire-import-floor-${process.pid}.sqlite`);
const remove = () => {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${file}${suffix}`, { force: true });
};
const best = new Map();
let fastest = Number.POSITIVE_INFINITY;
for (let run = 0; run < Number(args.repeat); run++) {
  remove();
  const db = new Database(file);
  db.function('quire_fold', { deterministic: true }, (value) =>
    typeof value === 'string' ? value.normalize('NFC').toLowerCase() : value,
  );
  for (const object of schema) db.exec(object.sql);
  db.pragma('journal_mode = delete');
  db.pragma('synchronous = full');
  db.pragma('cache_size = -524288');
  const started = performance.now();
  let last = started;
  const lap = (phase) => {
    const now = performance.now();
    best.set(phase, Math.min(best.get(phase) ?? Number.POSITIVE_INFINITY, now - last));
    last = now;
  };
  db.exec('begin immediate');
  const indexes = schema.filter((object) => object.type === 'index');
  const insertTrigger = schema.find((object) => object.type === 'trigger' && object.name.endsWith(':insert'));
  for (const index of indexes) db.exec(`drop index ${q(index.name)}`);
  if (insertTrigger) db.exec(`drop trigger ${q(insertTrigger.name)}`);
  const insert = db.prepare(
    `insert into ${q(table)} (${columns.map(q).join(', ')}) values (${columns.map(() => '?').join(', ')})`,
  );
  for (const row of rows) insert.run(row);
  lap('insert rows');
  for (const index of indexes) db.exec(index.sql);
  lap(`${indexes.length} indexes`);
  if (insertTrigger) db.exec(insertTrigger.sql);
  db.exec('commit');
  lap('commit');
  db.pragma('journal_mode = wal');
  db.close();
  lap('close');
  fastest = Math.min(fastest, performance.now() - started);
}
remove();
for (const [phase, ms] of best) console.log(`${phase.padEnd(14)} ${ms.toFixed(0).padStart(7)} ms`);
console.log(
  `floor: ${rows.length.toLocaleString('en-US')} rows in ${(fastest / 1000).toFixed(2)} s (${Math.round(rows.length / (fastest / 1000)).toLocaleString('en-US')} rows/s)`,
);
