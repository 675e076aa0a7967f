import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { ContentTypeTable, QuireDatabase } from '../schema.js';

/** A registry row as stored. */
export type ContentTypeRecord = Selectable<ContentTypeTable>;
/** A registry row to insert. */
export type NewContentTypeRecord = Insertable<ContentTypeTable>;
/** Changes to a registry row. */
export type ContentTypeRecordChanges = Updateable<ContentTypeTable>;

/** Reads of the content-type registry. */
export class ContentTypeRepository {
  constructor(private readonly db: Kysely<QuireDatabase>) {}

  /** The registry's version: it moves with every committed content-type change, by any server. */
  async version(): Promise<number> {
    const row = await this.db
      .selectFrom('quire_registry_version')
      .select('version')
      .where('id', '=', 1)
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /**
   * Marks the registry changed and returns its new version. Call it first in the transaction of the
   * change: the row it updates stays locked until commit, so changes by several servers queue here.
   */
  async bumpVersion(): Promise<number> {
    const row = await this.db
      .updateTable('quire_registry_version')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('id', '=', 1)
      .returning('version')
      .executeTakeFirst();
    return Number(row?.version ?? 0);
  }

  /** Registers a type. */
  async insert(record: NewContentTypeRecord): Promise<void> {
    await this.db.insertInto('quire_content_types').values(record).execute();
  }

  /** Changes a type's registry row. */
  async update(id: string, changes: ContentTypeRecordChanges): Promise<void> {
    await this.db.updateTable('quire_content_types').set(changes).where('id', '=', id).execute();
  }

  /** Removes a type's registry row. */
  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('quire_content_types').where('id', '=', id).execute();
  }

  /** The next sidebar position (after every existing type). */
  async nextPosition(): Promise<number> {
    const result = await this.db
      .selectFrom('quire_content_types')
      .select((eb) => eb.fn.max('position').as('last'))
      .executeTakeFirst();
    return Number(result?.last ?? -1) + 1;
  }

  /** All registered types, in sidebar order. */
  async listAll(): Promise<ContentTypeRecord[]> {
    return this.db.selectFrom('quire_content_types').selectAll().orderBy('position').orderBy('title').execute();
  }
}
