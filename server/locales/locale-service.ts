import type { Kysely } from 'kysely';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { checkLocalesDocument, DEFAULT_LOCALES, removedLocales } from '../../common/locale-rules.js';
import type { ContentWrites } from '../content/content-writes.js';
import { ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { LocaleRepository, type LocalesRecord } from '../db/repositories/locale-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { parseLocaleParameter, type RequestLocale } from './locale-parameter.js';

/**
 * The values the site holds per locale, as a change of the locales sees them in its transaction:
 * how many are held in the locales it removes (a locale holding values is removed only with
 * `force`), and the change of the stored values that follows every change of the document (see
 * localized-table-values.ts). Until a column is localized no value is held in any locale, which is
 * what `NO_LOCALE_VALUES` says.
 */
export interface LocaleValues {
  /** How many own values `locales` hold, stored under `stored` (the document before the change). */
  count(trx: Kysely<QuireDatabase>, stored: LocalesDocument, locales: readonly string[]): Promise<number>;
  /** Stores the values again under `after`: those of locales `after` no longer lists are dropped. */
  change(trx: Kysely<QuireDatabase>, before: LocalesDocument, after: LocalesDocument): Promise<void>;
}

/** The values of a site with no localized column: none, in any locale. */
export const NO_LOCALE_VALUES: LocaleValues = {
  count: async () => 0,
  change: async () => {},
};

/** What the locale service needs. */
export interface LocaleServiceOptions {
  db: Kysely<QuireDatabase>;
  /** Changes run as content-type changes do: one at a time, the read cache emptied after. */
  writes: ContentWrites;
  /** Other servers may change the locales in the same database (PostgreSQL): `follow()` checks before answering. */
  followsOtherServers?: boolean;
  /**
   * Called when the locales read differ from those read before (a change by this server or,
   * followed, another): the content tables' locale columns changed with them.
   */
  onReload?: () => void;
  /**
   * Run once this server's change has committed: it moved the content types' version too (see
   * `replace`), so the types are read again here, as after a change of them.
   */
  afterChange?: () => Promise<void>;
  /** The values held per locale (see LocaleValues; the site's are `localizedTableValues`); none by default. */
  values?: LocaleValues;
}

/** What a change was: the document now, its version, and the locales it removed. */
export interface LocalesChange {
  document: LocalesDocument;
  removed: string[];
}

/** Who changed the locales last and when, as stored (null when they were never set). */
export interface LocalesLastChange {
  by: string | null;
  at: string;
}

/**
 * The site's languages (`GET`/`PUT /api/locales`): read once and kept in memory, so reads that
 * resolve a locale ask no database; replaced whole by admins, checked by common/locale-rules.ts.
 * Servers sharing a database notice another's change by its version, as they do content types.
 */
export class LocaleService {
  private current: LocalesDocument = DEFAULT_LOCALES;
  private loadedVersion = -1;
  private last: LocalesLastChange | null = null;
  /** A version check under way, shared by the requests that arrive meanwhile. */
  private following: Promise<void> | null = null;

  private readonly repository: LocaleRepository;
  private readonly options: LocaleServiceOptions;

  constructor(options: LocaleServiceOptions) {
    this.options = options;
    this.repository = new LocaleRepository(options.db);
  }

  /** (Re)reads the stored locales. */
  async load(): Promise<void> {
    const known = this.loadedVersion;
    this.keep(await this.repository.read());
    if (known !== -1 && known !== this.loadedVersion) this.options.onReload?.();
  }

  /** The locales as this server last read them (call `follow()` first where other servers may change them). */
  get document(): LocalesDocument {
    return this.current;
  }

  /** The version the document was read at. */
  get version(): number {
    return this.loadedVersion;
  }

  /** Who changed the locales last and when, or null when no one has. */
  get lastChange(): LocalesLastChange | null {
    return this.last;
  }

  /**
   * Reads the locales again when another server changed them since, or null when no other server
   * can (SQLite: this process is the only writer).
   */
  follow(): Promise<void> | null {
    if (!this.options.followsOtherServers) return null;
    this.following ??= this.repository
      .version()
      .then((version) => (version === this.loadedVersion ? undefined : this.load()))
      .finally(() => {
        this.following = null;
      });
    return this.following;
  }

  /**
   * The locale a request names (`?locale=`, see parseLocaleParameter), checked against the locales
   * as loaded: row requests follow other servers' changes of them with the content types' version
   * (see `replace`), so only a code unknown here costs a look at the stored locales first.
   */
  async parameter(raw: unknown): Promise<RequestLocale> {
    try {
      return parseLocaleParameter(this.current, raw);
    } catch (error) {
      const following = this.follow();
      if (!following) throw error;
      await following;
      return parseLocaleParameter(this.current, raw);
    }
  }

  /** The locales now: after `follow`. */
  async now(): Promise<LocalesDocument> {
    await this.follow();
    return this.current;
  }

  /**
   * Replaces the locales with `input` (`PUT /api/locales`). A document that breaks the rules is a
   * 400 naming each problem; removing locales that still hold values is a 409 `locale_in_use`
   * unless `force`. `check` sees the locales as they are when the change's turn comes (an
   * If-Match) and may refuse by throwing. Nothing changes when any of them refuses.
   */
  async replace(
    input: unknown,
    options: {
      force: boolean;
      by: string | null;
      check?: (current: LocalesDocument, last: LocalesLastChange | null) => void;
    },
  ): Promise<LocalesChange> {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new AppError('bad_request', 'Send the locales as a JSON object: {"default":"en","locales":[…]}');
    }
    const unknown = Object.keys(input).filter((name) => name !== 'default' && name !== 'locales');
    if (unknown.length > 0) {
      throw new AppError('bad_request', `Unknown members: ${unknown.join(', ')}; the locales are default and locales`);
    }
    const checked = checkLocalesDocument(input);
    if (checked.problems) throw new AppError('validation_failed', 'The locales are not valid', checked.problems);
    const document = checked.document;
    const { writes } = this.options;
    const values = this.options.values ?? NO_LOCALE_VALUES;
    return writes.changeSchema(async () => {
      const change = await writes.run({ schema: true }, async (trx) => {
        // The content types' version moves too: servers sharing the database follow that version in
        // their row statements (read-marks.ts), so they read the new locales with their next request,
        // and a row write that ran on the old ones is refused at its COMMIT and runs again.
        await new ContentTypeRepository(trx).bumpVersion();
        const repository = new LocaleRepository(trx);
        const record = await repository.claim();
        const stored = documentOf(record);
        options.check?.(stored, lastChangeOf(record));
        const removed = removedLocales(stored, document);
        if (removed.length > 0 && !options.force) {
          const count = await values.count(trx, stored, removed);
          if (count > 0) {
            // The verb agrees with the locales, the noun with the values: "de still holds 4 values".
            const holders = removed.length === 1 ? `${removed[0]} still holds` : `${removed.join(', ')} still hold`;
            const held = count === 1 ? 'a value' : `${count} values`;
            throw new AppError(
              'conflict',
              `${holders} ${held}; translate them elsewhere first, or remove with ?force=true (the values are deleted)`,
              undefined,
              { code: 'locale_in_use', locales: removed, count },
            );
          }
        }
        await values.change(trx, stored, document);
        await repository.write(JSON.stringify(document), options.by);
        return { document, removed };
      });
      await this.load();
      await this.options.afterChange?.();
      return change;
    });
  }

  private keep(record: LocalesRecord): void {
    this.current = documentOf(record);
    this.loadedVersion = record.version;
    this.last = lastChangeOf(record);
  }
}

/**
 * The site's locales as stored, taken for the transaction `trx` until it ends: a change of a
 * content table's localized columns reads them so, and a change of the locales (which claims the
 * same row first) waits for it, then sees its table.
 */
export async function claimLocales(trx: Kysely<QuireDatabase>): Promise<LocalesDocument> {
  return documentOf(await new LocaleRepository(trx).claim());
}

/** Who changed the stored locales last and when, or null when no one has. */
function lastChangeOf(record: LocalesRecord): LocalesLastChange | null {
  return record.changed_at === null ? null : { by: record.changed_by, at: record.changed_at };
}

/** The document a stored row holds: the default one until locales are set. */
export function documentOf(record: Pick<LocalesRecord, 'document'>): LocalesDocument {
  return record.document === null ? DEFAULT_LOCALES : (JSON.parse(record.document) as LocalesDocument);
}
