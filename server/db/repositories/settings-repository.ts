import type { Kysely } from 'kysely';
import { timestampNow } from '../../../common/datetime-syntax.js';
import type { QuireDatabase, SettingTable } from '../schema.js';

/** The table of site-wide settings (migration 024). */
export const SETTINGS_TABLE = 'quire_settings';

/** A setting as stored. */
export type SettingRecord = SettingTable;

/** Reads and writes of site-wide settings: one value a name, with who set it and when. */
export class SettingsRepository {
  constructor(private readonly db: Kysely<QuireDatabase>) {}

  /** The setting `name`, or undefined when it was never set. */
  async get(name: string): Promise<SettingRecord | undefined> {
    return this.db.selectFrom('quire_settings').selectAll().where('name', '=', name).executeTakeFirst();
  }

  /** Sets `name` to `value` (a later set replaces it), recorded as `by`'s, now. */
  async set(name: string, value: string, by: string | null): Promise<void> {
    const row = { name, value, changed_at: timestampNow(), changed_by: by };
    await this.db
      .insertInto('quire_settings')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('name').doUpdateSet({ value, changed_at: row.changed_at, changed_by: by }),
      )
      .execute();
  }
}
