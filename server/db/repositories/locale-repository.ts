import type { Kysely } from 'kysely';
import { timestampNow } from '../../../common/datetime-syntax.js';
import type { QuireDatabase } from '../schema.js';

/** The table of the site's languages (migration 033): one row, id 1. */
export const LOCALES_TABLE = 'quire_locales';

/** The site's languages as stored. */
export interface LocalesRecord {
  id: number;
  /** The locales document as JSON text; null until one is set. */
  document: string | null;
  /** Moves with every committed change, by any server. */
  version: number;
  changed_at: string | null;
  changed_by: string | null;
}

interface LocaleTables {
  quire_locales: LocalesRecord;
}

/** Reads and writes of the site's languages. The same SQL on every engine. */
export class LocaleRepository {
  private readonly db: Kysely<LocaleTables>;

  constructor(db: Kysely<QuireDatabase>) {
    this.db = db as unknown as Kysely<LocaleTables>;
  }

  /** The stored row (the migration makes it, so it is always there). */
  async read(): Promise<LocalesRecord> {
    const row = await this.db.selectFrom(LOCALES_TABLE).selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    return { ...row, version: Number(row.version) };
  }

  /** The version alone: what a server sharing the database reads to tell whether its copy is stale. */
  async version(): Promise<number> {
    const row = await this.db.selectFrom(LOCALES_TABLE).select('version').where('id', '=', 1).executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /**
   * Takes the row for a change and returns it: run first in the change's transaction, so changes
   * by several servers queue here (PostgreSQL keeps the row locked until commit; SQLite has one
   * writer) and each checks what it replaces as it is then.
   */
  async claim(): Promise<LocalesRecord> {
    await this.db
      .updateTable(LOCALES_TABLE)
      .set((eb) => ({ version: eb('version', '+', 0) }))
      .where('id', '=', 1)
      .execute();
    return this.read();
  }

  /** Replaces the document, recorded as `by`'s, now; returns the new version. */
  async write(document: string, by: string | null): Promise<number> {
    const row = await this.db
      .updateTable(LOCALES_TABLE)
      .set((eb) => ({ document, version: eb('version', '+', 1), changed_at: timestampNow(), changed_by: by }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirstOrThrow();
    return Number(row.version);
  }
}
