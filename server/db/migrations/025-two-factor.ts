import type { Kysely } from 'kysely';

const ACCOUNTS_TABLE = 'quire_accounts';
const TWO_FACTOR_CHALLENGES_TABLE = 'quire_two_factor_challenges';

/**
 * Two-factor sign-in: an account's TOTP secret (once confirmed), the one being enrolled, the last
 * time step a code was accepted for (a code is good once), and its recovery codes' hashes; and
 * the sign-ins waiting for their second factor (by the SHA-256 of their one-time cookie).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable(ACCOUNTS_TABLE).addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable(ACCOUNTS_TABLE).addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable(ACCOUNTS_TABLE).addColumn('totp_last_step', 'integer').execute();
  // JSON: { "salt": base64url, "hashes": [base64url, ...] }; null without two-factor sign-in.
  await db.schema.alterTable(ACCOUNTS_TABLE).addColumn('recovery_codes', 'text').execute();
  await db.schema
    .createTable(TWO_FACTOR_CHALLENGES_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('account_id', 'text', (column) =>
      column.notNull().references(`${ACCOUNTS_TABLE}.id`).onDelete('cascade'),
    )
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
}
