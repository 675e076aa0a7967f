import { type Generated, type Kysely, sql } from 'kysely';
import type { QuireDatabase } from '../schema.js';
import type { Page } from './revision-repository.js';

/** The audit log's table (migration 026). */
export const AUDIT_TABLE = 'quire_audit';
/** The purge and time filters go by `at`. */
export const AUDIT_TIME_INDEX = 'quire_audit:at';

/** A stored audit event. */
export interface AuditRow {
  id: number;
  /** Server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`). */
  at: string;
  action: string;
  actor: string | null;
  address: string | null;
  target: string | null;
  /** JSON object text. */
  detail: string;
}

/** Which events a list shows: each member given narrows it (times are server timestamps, inclusive). */
export interface AuditFilter {
  action?: string;
  actor?: string;
  target?: string;
  since?: string;
  until?: string;
}

interface AuditTables {
  quire_audit: Omit<AuditRow, 'id'> & { id: Generated<number> };
}

/** All SQL of the audit log, the same on both engines: append, list newest first, purge by age. */
export class AuditRepository {
  private readonly db: Kysely<AuditTables>;

  constructor(db: Kysely<QuireDatabase> | Kysely<unknown>) {
    this.db = db as unknown as Kysely<AuditTables>;
  }

  async insert(event: Omit<AuditRow, 'id'>): Promise<void> {
    await this.db.insertInto(AUDIT_TABLE).values(event).execute();
  }

  /** One page of the events `filter` selects, newest first, and how many it selects in all. */
  async list(filter: AuditFilter, page: Page): Promise<{ rows: AuditRow[]; total: number }> {
    let rows = this.db.selectFrom(AUDIT_TABLE);
    if (filter.action !== undefined) rows = rows.where('action', '=', filter.action);
    if (filter.actor !== undefined) rows = rows.where('actor', '=', filter.actor);
    if (filter.target !== undefined) rows = rows.where('target', '=', filter.target);
    if (filter.since !== undefined) rows = rows.where('at', '>=', filter.since);
    if (filter.until !== undefined) rows = rows.where('at', '<=', filter.until);
    const found = await rows.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    const count = await rows.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return { rows: found.map((row) => ({ ...row, id: Number(row.id) })), total: Number(count.n) };
  }

  /** Removes the events recorded before `before`; how many went. */
  async purgeBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom(AUDIT_TABLE).where('at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows ?? 0);
  }
}

/** After a copy into PostgreSQL inserted events with their ids: the identity continues after the largest. */
export async function continueAuditIds(db: Kysely<QuireDatabase> | Kysely<unknown>): Promise<void> {
  await sql`select setval(pg_get_serial_sequence(${AUDIT_TABLE}, 'id'), coalesce(max(id), 0) + 1, false)
    from ${sql.table(AUDIT_TABLE)}`.execute(db);
}
