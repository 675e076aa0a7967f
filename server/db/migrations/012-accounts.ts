import type { Kysely } from 'kysely';

const ACCOUNTS_TABLE = 'quire_accounts';
const TOKENS_TABLE = 'quire_tokens';
const SESSIONS_TABLE = 'quire_sessions';

/**
 * Accounts, API tokens and sign-in sessions, the same on both engines. Times are ISO
 * 8601 UTC text (`2026-11-23T18:00:00.000Z`), which sorts and compares as text on either engine.
 * Passwords are stored only as scrypt hashes, tokens and session ids only as SHA-256 hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable(ACCOUNTS_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('role', 'text', (column) => column.notNull())
    // A JSON array of content types (tables or slugs) the account is limited to; null: all.
    .addColumn('content_types', 'text')
    .addColumn('password_hash', 'text', (column) => column.notNull())
    .addColumn('disabled', 'integer', (column) => column.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable(TOKENS_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('role', 'text', (column) => column.notNull())
    .addColumn('content_types', 'text')
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable(SESSIONS_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('account_id', 'text', (column) =>
      column.notNull().references(`${ACCOUNTS_TABLE}.id`).onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('quire_sessions:account').on(SESSIONS_TABLE).column('account_id').execute();
}
