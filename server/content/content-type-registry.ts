import { isDatabaseUnavailable } from '../db/database.js';
import type { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { AppError } from '../errors/app-error.js';
import { type ContentType, contentTypeFromRecord } from './content-type.js';

/** Where the registry reads content types, and whether other servers change them too. */
export interface ContentTypeRegistryOptions {
  repository: ContentTypeRepository;
  /**
   * Other servers may change content types in the same database (PostgreSQL), so `follow()`
   * checks the registry's version before a request resolves its type.
   */
  followsOtherServers?: boolean;
  /**
   * Told when the types are reloaded (PostgreSQL forgets its prepared `select *`s then; the site's
   * locales, whose changes move the same version, are read again), before the reload completes.
   */
  onReload?: () => void | Promise<void>;
}

/**
 * The content types, loaded once from the registry table and kept in memory: every request resolves
 * its `:type` and `:slug` here, so identifiers reaching SQL are always ones the registry knows.
 */
export class ContentTypeRegistry {
  private types: ContentType[] = [];
  private byTable = new Map<string, ContentType>();
  private bySlug = new Map<string, ContentType>();
  /** The registry version the types were loaded at. */
  private loadedVersion = -1;
  /** A version check under way, shared by the requests that arrive meanwhile. */
  private following: Promise<void> | null = null;

  private readonly repository: ContentTypeRepository;
  private readonly followsOtherServers: boolean;
  private readonly onReload: () => void | Promise<void>;

  constructor(options: ContentTypeRegistryOptions) {
    this.repository = options.repository;
    this.followsOtherServers = options.followsOtherServers ?? false;
    this.onReload = options.onReload ?? (() => {});
  }

  /** (Re)loads the registry; call after any change to content types. */
  async reload(): Promise<void> {
    // The version first: a change committed between the two reads makes the next check reload again.
    this.loadedVersion = await this.repository.version();
    const records = await this.repository.listAll();
    this.types = records.map(contentTypeFromRecord);
    for (const type of this.types) this.versions.set(type, this.loadedVersion);
    this.byTable = new Map(this.types.map((type) => [type.table, type]));
    this.bySlug = new Map(this.types.map((type) => [type.slug, type]));
    await this.onReload();
  }

  /**
   * Reloads the registry after this server committed a change to content types. On a database other
   * servers share, the change stands even when the database went away right after its COMMIT: the
   * types are then marked stale (the next request's `follow()` reloads them, as it would after
   * another server's change) and false is returned, so the caller answers from what it committed
   * instead of calling a saved change "not saved".
   */
  async reloadAfterCommit(): Promise<boolean> {
    try {
      await this.reload();
      return true;
    } catch (error) {
      if (!this.followsOtherServers || !isDatabaseUnavailable(error)) throw error;
      this.loadedVersion = -1;
      return false;
    }
  }

  /**
   * Reloads the registry when another server changed content types since it was loaded, or null
   * when no other server can (SQLite: this process is the only writer; a restore needs a restart).
   */
  follow(): Promise<void> | null {
    if (!this.followsOtherServers) return null;
    this.following ??= this.repository
      .version()
      .then((version) => (version === this.loadedVersion ? undefined : this.reload()))
      .finally(() => {
        this.following = null;
      });
    return this.following;
  }

  /** The registry version the loaded types are at. */
  get version(): number {
    return this.loadedVersion;
  }

  /** The registry version `type` was loaded at (types are made anew at each load), or -1 for a type not loaded here. */
  versionOf(type: ContentType): number {
    return this.versions.get(type) ?? -1;
  }

  /** The version each loaded type object was made at. */
  private readonly versions = new WeakMap<ContentType, number>();

  /** Whether other servers may change content types (`follow` checks for their changes). */
  get shared(): boolean {
    return this.followsOtherServers;
  }

  /** The registry's version now: after `follow`, which reloads the types when it moved. */
  async versionNow(): Promise<number> {
    await this.follow();
    return this.loadedVersion;
  }

  /** All types, in sidebar order. */
  list(): readonly ContentType[] {
    return this.types;
  }

  /** The type whose slug is `slug`, if any. */
  findBySlug(slug: string): ContentType | undefined {
    return this.bySlug.get(slug);
  }

  /** The type whose table is `table` as loaded, if any. */
  findByTable(table: string): ContentType | undefined {
    return this.byTable.get(table);
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
