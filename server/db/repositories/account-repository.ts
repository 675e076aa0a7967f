import { type Kysely, sql } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { type QuireDatabase, REGISTRY_TABLE } from '../schema.js';

/** Accounts: one per person who signs in. */
export const ACCOUNTS_TABLE = 'quire_accounts';
/** API tokens, stored as SHA-256 hashes. */
export const TOKENS_TABLE = 'quire_tokens';
/** Sign-in sessions, by the SHA-256 hash of the cookie's value. */
export const SESSIONS_TABLE = 'quire_sessions';

/** Single sign-on identities (issuer and subject) bound to accounts. */
export const IDENTITIES_TABLE = 'quire_account_identities';

/** The tables in the order a copy loads them (sessions and identities point at accounts). */
export const ACCOUNT_TABLES = [ACCOUNTS_TABLE, TOKENS_TABLE, SESSIONS_TABLE, IDENTITIES_TABLE] as const;

/** A stored account row. */
export interface AccountRow {
  id: string;
  name: string;
  role: string;
  /** JSON array text, or null for all types. */
  content_types: string | null;
  password_hash: string;
  disabled: number;
  created_at: string;
  updated_at: string;
  /** The confirmed TOTP secret (two-factor sign-in on), or null; see two-factor-repository.ts. */
  totp_secret?: string | null;
  /** The editor language the person chose, or null to follow the browser. */
  language?: string | null;
}

/** A stored token row. */
export interface TokenRow {
  id: string;
  name: string;
  role: string;
  content_types: string | null;
  token_hash: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

/** A stored session row. */
export interface SessionRow {
  id: string;
  account_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** A stored single sign-on identity: the provider (issuer) and its lasting id of the person (subject). */
export interface IdentityRow {
  id: string;
  issuer: string;
  subject: string;
  account_id: string;
  created_at: string;
}

/** The account tables as Kysely sees them. */
interface AccountTables {
  quire_accounts: AccountRow;
  quire_tokens: TokenRow;
  quire_sessions: SessionRow;
  quire_account_identities: IdentityRow;
}

/** A session joined with its account. */
export interface SessionWithAccount {
  session: SessionRow;
  account: AccountRow;
}

/**
 * All SQL of accounts, tokens and sessions, the same on both engines. Times are ISO text, so
 * `expires_at > now` compares as text.
 */
export class AccountRepository {
  private readonly db: Kysely<AccountTables>;

  /** `engine`: the database's, whose lock makes `exclusively` hold across servers sharing it. */
  constructor(
    db: Kysely<QuireDatabase> | Kysely<unknown>,
    private readonly engine?: Pick<DatabaseEngine, 'lockUntilCommit'>,
  ) {
    this.db = db as unknown as Kysely<AccountTables>;
  }

  /**
   * Runs `work` in a transaction that takes account changes one at a time, so what it checked ("no
   * account yet", "another admin remains") still holds when its change commits: on PostgreSQL a
   * transaction-level lock that every server takes (each statement there sees other transactions'
   * commits, so two servers could each see the other's admin and both demote theirs); on SQLite the
   * transaction has the connection to itself. Slow work (password hashing) belongs before it.
   */
  async exclusively<T>(work: (accounts: AccountRepository) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await this.engine?.lockUntilCommit(trx as unknown as Kysely<unknown>, ACCOUNTS_TABLE);
      return work(new AccountRepository(trx as unknown as Kysely<unknown>));
    });
  }

  /** Whether any account exists (disabled ones count: the site has been given to people). */
  async anyAccount(): Promise<boolean> {
    const row = await this.db.selectFrom(ACCOUNTS_TABLE).select('id').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  async listAccounts(): Promise<AccountRow[]> {
    return this.db.selectFrom(ACCOUNTS_TABLE).selectAll().orderBy('name').execute();
  }

  async findAccount(name: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom(ACCOUNTS_TABLE).selectAll().where('name', '=', name).executeTakeFirst();
  }

  /**
   * How many content rows, in every content type, name `name` as their author: rows made under the
   * editor name (before accounts existed, or with the run token) that an account of that name owns.
   */
  async rowsAuthoredBy(name: string): Promise<number> {
    const types = await sql<{ table_name: string }>`select table_name from ${sql.table(REGISTRY_TABLE)}`.execute(
      this.db,
    );
    let total = 0;
    for (const { table_name } of types.rows) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table_name)}
        where created_by = ${name}`.execute(this.db);
      total += Number(rows[0]?.n ?? 0);
    }
    return total;
  }

  async insertAccount(row: AccountRow): Promise<void> {
    await this.db.insertInto(ACCOUNTS_TABLE).values(row).execute();
  }

  /**
   * Inserts the first account only while there is none, in one statement (run `exclusively`, so two
   * first runs at once, on one server or two, cannot both make an admin). Returns whether it was
   * inserted.
   */
  async insertFirstAccount(row: AccountRow): Promise<boolean> {
    const table = sql.table(ACCOUNTS_TABLE);
    const result =
      await sql`insert into ${table} (id, name, role, content_types, password_hash, disabled, created_at, updated_at)
      select ${row.id}, ${row.name}, ${row.role}, ${row.content_types}, ${row.password_hash}, 0, ${row.created_at}, ${row.updated_at}
      where not exists (select 1 from ${table})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0) === 1;
  }

  /** How many enabled admins there are. */
  async enabledAdmins(): Promise<number> {
    const rows = await this.db
      .selectFrom(ACCOUNTS_TABLE)
      .select('id')
      .where('role', '=', 'admin')
      .where('disabled', '=', 0)
      .execute();
    return rows.length;
  }

  /** Changes an account; returns whether it exists. */
  async updateAccount(
    name: string,
    changes: Partial<
      Pick<AccountRow, 'role' | 'content_types' | 'password_hash' | 'disabled' | 'updated_at' | 'language'>
    >,
  ): Promise<boolean> {
    const result = await this.db.updateTable(ACCOUNTS_TABLE).set(changes).where('name', '=', name).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async listTokens(): Promise<TokenRow[]> {
    return this.db.selectFrom(TOKENS_TABLE).selectAll().orderBy('created_at').orderBy('name').execute();
  }

  /** The token whose hash is `hash` (a unique index lookup: the stored hash is never compared byte by byte here). */
  async findTokenByHash(hash: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom(TOKENS_TABLE).selectAll().where('token_hash', '=', hash).executeTakeFirst();
  }

  /** Whether a token of this name is in use (not revoked). */
  async activeTokenNamed(name: string): Promise<boolean> {
    const row = await this.db
      .selectFrom(TOKENS_TABLE)
      .select('id')
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertToken(row: TokenRow): Promise<void> {
    await this.db.insertInto(TOKENS_TABLE).values(row).execute();
  }

  /** Revokes the tokens of this name not yet revoked; returns how many. */
  async revokeToken(name: string, now: string): Promise<number> {
    const result = await this.db
      .updateTable(TOKENS_TABLE)
      .set({ revoked_at: now })
      .where('name', '=', name)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async touchToken(id: string, now: string): Promise<void> {
    await this.db.updateTable(TOKENS_TABLE).set({ last_used_at: now }).where('id', '=', id).execute();
  }

  async insertSession(row: SessionRow): Promise<void> {
    await this.db.insertInto(SESSIONS_TABLE).values(row).execute();
  }

  /** The session with this id hash and its account, when it has not expired. */
  async findSession(id: string, now: string): Promise<SessionWithAccount | undefined> {
    const row = await this.db
      .selectFrom(SESSIONS_TABLE)
      .innerJoin(ACCOUNTS_TABLE, `${ACCOUNTS_TABLE}.id`, `${SESSIONS_TABLE}.account_id`)
      .select([
        `${SESSIONS_TABLE}.id as session_id`,
        `${SESSIONS_TABLE}.account_id as account_id`,
        `${SESSIONS_TABLE}.created_at as session_created_at`,
        `${SESSIONS_TABLE}.last_seen_at as last_seen_at`,
        `${SESSIONS_TABLE}.expires_at as expires_at`,
        `${ACCOUNTS_TABLE}.name as name`,
        `${ACCOUNTS_TABLE}.role as role`,
        `${ACCOUNTS_TABLE}.content_types as content_types`,
        `${ACCOUNTS_TABLE}.password_hash as password_hash`,
        `${ACCOUNTS_TABLE}.disabled as disabled`,
        `${ACCOUNTS_TABLE}.created_at as created_at`,
        `${ACCOUNTS_TABLE}.updated_at as updated_at`,
        `${ACCOUNTS_TABLE}.totp_secret as totp_secret`,
      ])
      .where(`${SESSIONS_TABLE}.id`, '=', id)
      .where(`${SESSIONS_TABLE}.expires_at`, '>', now)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      session: {
        id: row.session_id,
        account_id: row.account_id,
        created_at: row.session_created_at,
        last_seen_at: row.last_seen_at,
        expires_at: row.expires_at,
      },
      account: {
        id: row.account_id,
        name: row.name,
        role: row.role,
        content_types: row.content_types,
        password_hash: row.password_hash,
        disabled: Number(row.disabled),
        created_at: row.created_at,
        updated_at: row.updated_at,
        totp_secret: row.totp_secret ?? null,
      },
    };
  }

  async touchSession(id: string, lastSeen: string, expires: string): Promise<void> {
    await this.db
      .updateTable(SESSIONS_TABLE)
      .set({ last_seen_at: lastSeen, expires_at: expires })
      .where('id', '=', id)
      .execute();
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.deleteFrom(SESSIONS_TABLE).where('id', '=', id).execute();
  }

  /** Ends every session of an account (disabled, or its password reset). */
  async deleteSessionsOf(accountId: string): Promise<void> {
    await this.db.deleteFrom(SESSIONS_TABLE).where('account_id', '=', accountId).execute();
  }

  /** The account an identity of `issuer` with `subject` is bound to. */
  async findAccountByIdentity(issuer: string, subject: string): Promise<AccountRow | undefined> {
    const row = await this.db
      .selectFrom(IDENTITIES_TABLE)
      .innerJoin(ACCOUNTS_TABLE, `${ACCOUNTS_TABLE}.id`, `${IDENTITIES_TABLE}.account_id`)
      .selectAll(ACCOUNTS_TABLE)
      .where(`${IDENTITIES_TABLE}.issuer`, '=', issuer)
      .where(`${IDENTITIES_TABLE}.subject`, '=', subject)
      .executeTakeFirst();
    return row === undefined ? undefined : { ...row, disabled: Number(row.disabled) };
  }

  /** Whether an account has an identity of `issuer` bound to it. */
  async hasIdentity(accountId: string, issuer: string): Promise<boolean> {
    const row = await this.db
      .selectFrom(IDENTITIES_TABLE)
      .select('id')
      .where('account_id', '=', accountId)
      .where('issuer', '=', issuer)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertIdentity(row: IdentityRow): Promise<void> {
    await this.db.insertInto(IDENTITIES_TABLE).values(row).execute();
  }

  /** Forgets expired sessions. */
  async deleteExpiredSessions(now: string): Promise<void> {
    await this.db.deleteFrom(SESSIONS_TABLE).where('expires_at', '<=', now).execute();
  }
}
