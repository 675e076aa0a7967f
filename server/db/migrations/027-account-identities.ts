import type { Kysely } from 'kysely';

const ACCOUNTS_TABLE = 'quire_accounts';
const IDENTITIES_TABLE = 'quire_account_identities';

/**
 * Single sign-on: the OpenID Connect identities bound to accounts, one row per provider (issuer)
 * and subject. The subject is the provider's lasting id of a person, so a later rename at the
 * provider (preferred_username, e-mail) still signs in to the same account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable(IDENTITIES_TABLE)
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('issuer', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('account_id', 'text', (column) =>
      column.notNull().references(`${ACCOUNTS_TABLE}.id`).onDelete('cascade'),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('quire_account_identities:subject', ['issuer', 'subject'])
    .execute();
  await db.schema.createIndex('quire_account_identities:account').on(IDENTITIES_TABLE).column('account_id').execute();
}
