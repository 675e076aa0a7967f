import type { Kysely, Selectable } from 'kysely';
import type { ContentTypeTable, QuireDatabase } from './schema.js';

/** A registry row as stored. */
export type ContentTypeRecord = Selectable<ContentTypeTable>;

/** Reads of the content-type registry. */
export class ContentTypeRepository {
  constructor(private readonly db: Kysely<QuireDatabase>) {}

  /** All registered types, in sidebar order. */
  async listAll(): Promise<ContentTypeRecord[]> {
    return this.db.selectFrom('quire_content_types').selectAll().orderBy('position').orderBy('title').execute();
  }
}
