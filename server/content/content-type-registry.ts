import type { ContentTypeRepository } from '../db/content-type-repository.js';
import { AppError } from '../errors/app-error.js';
import { type ContentType, contentTypeFromRecord } from './content-type.js';

/**
 * The content types, loaded once from the registry table and kept in memory: every request resolves
 * its `:type` and `:slug` here, so identifiers reaching SQL are always ones the registry knows.
 */
export class ContentTypeRegistry {
  private types: ContentType[] = [];
  private byTable = new Map<string, ContentType>();
  private bySlug = new Map<string, ContentType>();

  constructor(private readonly repository: ContentTypeRepository) {}

  /** (Re)loads the registry; call after any change to content types. */
  async reload(): Promise<void> {
    const records = await this.repository.listAll();
    this.types = records.map(contentTypeFromRecord);
    this.byTable = new Map(this.types.map((type) => [type.table, type]));
    this.bySlug = new Map(this.types.map((type) => [type.slug, type]));
  }

  /** All types, in sidebar order. */
  list(): readonly ContentType[] {
    return this.types;
  }

  /** The type whose slug is `slug`, if any. */
  findBySlug(slug: string): ContentType | undefined {
    return this.bySlug.get(slug);
  }

  /** The type whose table is `table` (the `:type` path segment), or a 404. */
  requireByTable(table: string): ContentType {
    const type = this.byTable.get(table);
    if (!type) throw new AppError('not_found', `There is no content type ${JSON.stringify(table)}`);
    return type;
  }

  /** The type whose slug is `slug`, or a 404. */
  requireBySlug(slug: string): ContentType {
    const type = this.bySlug.get(slug);
    if (!type) throw new AppError('not_found', `There is no content type with slug ${JSON.stringify(slug)}`);
    return type;
  }
}
