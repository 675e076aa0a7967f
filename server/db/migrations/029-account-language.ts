import type { Kysely } from 'kysely';

/**
 * The editor language each person chose (`en`, `de`, ...), so signing in on another machine
 * brings it along; null follows the browser's languages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('quire_accounts').addColumn('language', 'text').execute();
}
