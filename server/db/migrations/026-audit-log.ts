import type { Kysely } from 'kysely';
import type { MigrationEngine } from './migration-engine.js';

const AUDIT_TABLE = 'quire_audit';
const AUDIT_TIME_INDEX = 'quire_audit:at';

/**
 * The audit log: one row a security event (sign-ins, account, token, hook and content-type changes,
 * restores, first run), appended and never changed, removed only by the retention purge. The id is
 * numbered as revisions' are (the engine step); times are server timestamps, which sort and
 * compare as text on either engine.
 */
export async function up(db: Kysely<unknown>, { migrations }: MigrationEngine): Promise<void> {
  const { numberedId } = migrations['026-audit-log'];
  await numberedId(db.schema.createTable(AUDIT_TABLE))
    .addColumn('at', 'text', (column) => column.notNull())
    // A machine code such as sign_in.failed or account.created.
    .addColumn('action', 'text', (column) => column.notNull())
    // The account or token name, `cli`, or null when no one is known (a failed sign-in's name is its target).
    .addColumn('actor', 'text')
    // The client address as the server sees it (behind a trusted proxy, the forwarded one).
    .addColumn('address', 'text')
    .addColumn('target', 'text')
    // A small JSON object; never a secret.
    .addColumn('detail', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex(AUDIT_TIME_INDEX).on(AUDIT_TABLE).columns(['at']).execute();
}
