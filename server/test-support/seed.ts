import { type Kysely, sql } from 'kysely';
import type { ColumnDescriptor, ContentRow } from '../../common/api-contract.js';
import { createContentTable } from '../db/repositories/content-schema-repository.js';
import type { RunningServer } from '../server.js';

/** Registers an extra content type straight in the registry (until types can be created over HTTP). */
export async function addContentType(
  server: RunningServer,
  table: string,
  columns: ColumnDescriptor[],
  title = table,
): Promise<void> {
  const { db, engine } = server.database;
  await db.transaction().execute(async (trx) => {
    await createContentTable(trx as unknown as Kysely<unknown>, engine, table, columns);
    await trx
      .insertInto('quire_content_types')
      .values({
        id: table,
        slug: table,
        table_name: table,
        title,
        status: 'published',
        type: 'collection',
        custom: 1,
        columns: JSON.stringify(columns),
        preview_path: null,
        created_at: '2026-01-01 00:00:00.000000',
        updated_at: '2026-01-01 00:00:00.000000',
      })
      .execute();
  });
  await server.services.registry.reload();
}

/** A news row body with defaults for the fields a test does not care about. */
export function newsBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { title: 'A headline', status: 'draft', published_at: '2025-01-01 10:00:00', ...fields };
}

/** Creates news rows through the service (fast seeding for list tests). */
export async function seedNews(server: RunningServer, bodies: Record<string, unknown>[]): Promise<ContentRow[]> {
  const news = server.services.registry.requireByTable('news');
  const rows: ContentRow[] = [];
  for (const body of bodies) rows.push(await server.services.rows.create(news, newsBody(body)));
  return rows;
}

/**
 * Rows of a table counted straight in the database, past Quire's services and caches (to check that
 * a refused request changed nothing). Through Kysely, so it counts on either engine.
 */
export async function countRows(server: RunningServer, table: string): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(
    server.database.db,
  );
  // PostgreSQL's count is a bigint, which node-postgres reads as a string.
  return Number(rows[0].n);
}
