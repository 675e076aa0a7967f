import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { ACCOUNTS_TABLE, TOKENS_TABLE } from '../db/repositories/account-repository.js';
import { mediaDirFor } from '../media/media-store.js';
import type { TestServer } from './test-server.js';

/** Files under a folder, recursively (a missing folder has none). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name));
  } catch {
    return [];
  }
}

/**
 * Everything a request could change, read straight from the database (and the media folder on
 * SQLite), past Quire's services and caches: content rows of the given tables, the content-type
 * registry, accounts and tokens (not their last-used times, which reads move), and the uploads.
 * Two equal snapshots around a refused request prove it changed nothing.
 */
export async function siteState(server: TestServer, tables: readonly string[]): Promise<unknown> {
  const { db } = server.database;
  const all = async (query: ReturnType<typeof sql>) => (await query.execute(db)).rows;
  const rows: Record<string, unknown> = {};
  for (const table of tables) rows[table] = await all(sql`select * from ${sql.table(table)} order by id`);
  const types = await all(
    sql`select slug, table_name, title, columns, updated_at from quire_content_types order by slug`,
  );
  const accounts = await all(
    sql`select name, role, content_types, password_hash, disabled, updated_at from ${sql.table(ACCOUNTS_TABLE)} order by name`,
  );
  const tokens = await all(
    sql`select name, role, content_types, token_hash, expires_at, revoked_at from ${sql.table(TOKENS_TABLE)} order by token_hash`,
  );
  const media =
    server.engine === 'postgres'
      ? await all(sql`select path from quire_media order by path`)
      : filesUnder(mediaDirFor(server.dbFile)).sort();
  return { rows, types, accounts, tokens, media };
}
