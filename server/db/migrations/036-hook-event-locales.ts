import type { Kysely } from 'kysely';

const HOOK_OUTBOX_TABLE = 'quire_hook_outbox';

/**
 * Build hooks' waiting events carry the locales their change touched, as the change feed names
 * them: a JSON array of locale codes for a row of a type with localized columns, null otherwise
 * (and for events queued before this migration, which go out as they were queued).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable(HOOK_OUTBOX_TABLE).addColumn('locales', 'text').execute();
}
