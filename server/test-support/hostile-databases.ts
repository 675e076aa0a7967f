import Database from 'better-sqlite3';
import { Kysely, Migrator } from 'kysely';
import { openDatabase } from '../db/database.js';
import { migrationProvider } from '../db/migrations/index.js';
import { openSqlite } from '../db/sqlite/sqlite-dialect.js';
import { sqliteEngine } from '../db/sqlite/sqlite-engine.js';

/**
 * Database files that look like Quire's but are not what Quire writes: hostile backups, for
 * the restore and shutdown tests. Each builder writes `file` and returns it.
 */

/** A fresh Quire database, closed. */
export async function quireDatabase(file: string): Promise<string> {
  await (await openDatabase(file)).close();
  return file;
}

/** Runs `statements` on a database file outside Quire (no migrations, no Quire functions). */
export function tamper(file: string, statements: string): string {
  const raw = new Database(file);
  try {
    raw.exec(statements);
  } finally {
    raw.close();
  }
  return file;
}

/** Its own trigger: every news insert then deletes every category. */
export async function withForeignTrigger(file: string): Promise<string> {
  await quireDatabase(file);
  return tamper(file, 'create trigger news_cleanup after insert on news begin delete from categories; end;');
}

/**
 * A trigger in Quire's own namespace on a content table, which is not one Quire writes: every news
 * insert deletes every category.
 */
export async function withImpostorTrigger(file: string): Promise<string> {
  await quireDatabase(file);
  return tamper(file, 'create trigger quire_news_cleanup after insert on news begin delete from categories; end;');
}

/**
 * `categories` replaced by an endless recursive view with the table's columns: any list of
 * categories (which counts its rows) runs forever, blocking the server's only thread.
 */
export async function withRecursiveView(file: string): Promise<string> {
  await quireDatabase(file);
  const raw = new Database(file);
  try {
    const ownObjects = raw
      .prepare(
        `select type, name from sqlite_master where tbl_name = 'categories' and type = 'trigger'
         union all select type, name from sqlite_master where type = 'table' and name like 'quire%categories%'
           and sql like 'CREATE VIRTUAL%'
         union all select type, name from sqlite_master where type = 'table' and name like 'quire%categories%pending%'`,
      )
      .all() as { type: string; name: string }[];
    for (const { type, name } of ownObjects) raw.exec(`drop ${type} if exists "${name.replaceAll('"', '""')}"`);
    raw.exec(`drop table categories;
      create view categories as
        with recursive n(i) as (select 1 union all select i + 1 from n)
        select cast(i as text) as id, 'Loop ' || i as title, 'loop-' || i as slug, null as meta,
               '2026-01-01 00:00:00.000000' as created_at, '2026-01-01 00:00:00.000000' as updated_at,
               null as created_by, null as updated_by
        from n;`);
  } finally {
    raw.close();
  }
  return file;
}

/** Only a bare registry table: what passed for a Quire database by its table name alone. */
export function bareRegistry(file: string): string {
  return tamper(file, 'create table quire_content_types (id text primary key);');
}

/** A registry row whose columns are not valid descriptors (an unknown column type). */
export async function withMalformedRegistry(file: string): Promise<string> {
  await quireDatabase(file);
  return tamper(
    file,
    `update quire_content_types set columns = '[{"name":"title","label":"Title","type":"colour","required":true}]'
     where slug = 'news';`,
  );
}

/** A registry row whose columns are not JSON at all. */
export async function withUnreadableRegistry(file: string): Promise<string> {
  await quireDatabase(file);
  return tamper(file, `update quire_content_types set columns = '[{"name":' where slug = 'categories';`);
}

/** A table Quire knows nothing about. */
export async function withForeignTable(file: string): Promise<string> {
  await quireDatabase(file);
  return tamper(file, 'create table stolen_passwords (user text, password text);');
}

/** Written by a newer Quire: a migration this version does not know. */
export async function fromNewerVersion(file: string): Promise<string> {
  await quireDatabase(file);
  return tamper(file, `insert into kysely_migration (name, timestamp) values ('999-from-the-future', '2099-01-01');`);
}

/** Written by an older Quire: migrated only up to `last`. */
export async function fromOlderVersion(file: string, last: string): Promise<string> {
  const db = new Kysely<unknown>({ dialect: openSqlite(file).dialect });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider(sqliteEngine) }).migrateTo(last);
    if (error) throw error;
  } finally {
    await db.destroy();
  }
  return file;
}
