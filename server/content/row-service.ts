import type { Kysely } from 'kysely';
import { mayChangeRow } from '../../common/access-rules.js';
import type { ContentRow, SeoMeta } from '../../common/api-contract.js';
import { timestampNow } from '../../common/datetime-syntax.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import type { RevisionOrigin } from '../../common/revision-contract.js';
import type { DatabaseEngine } from '../db/engine.js';
import { type ReadMarks, type RowExtra, unmarked } from '../db/queries/read-marks.js';
import { withSearchTexts } from '../db/queries/search-text-columns.js';
import { ContentRepository, type RowSelection, type StoredRow } from '../db/repositories/content-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import type { StatementRunner } from '../db/statement-runner.js';
import { AppError, validationError } from '../errors/app-error.js';
import { listedLocale, type RequestLocale } from '../locales/locale-parameter.js';
import { requireShownColumns } from './column-conditions.js';
import type { ContentType } from './content-type.js';
import type { ContentTypeRegistry } from './content-type-registry.js';
import type { ContentWrites, RowScope, WriteLog } from './content-writes.js';
import type { ListOptions } from './list-query.js';
import type { PhaseTimer } from './phase-timer.js';
import { selectionKey } from './read-cache.js';
import {
  assertNotReferenced,
  checkRelationTargets,
  hiddenRelations,
  refuseHiddenPointers,
  resolveRelations,
} from './relations.js';
import { formatRow, type RowLocale, selectedColumns } from './row-format.js';
import { isValidRowId, newRowId } from './row-ids.js';
import { parseRowInput, type RowInput } from './row-input.js';
import { checkBeforeWrite, rowVersion, type WriteCheck } from './row-versions.js';
import { SearchFlushes } from './search-flushes.js';
import { applyMetaPatch, parseStoredMeta, resolvePageMeta } from './seo-meta.js';
import { SlugPicker } from './slug-picker.js';
import { localizedChanges, localizedStored, newStoredRow, toStored } from './stored-row.js';
import { withoutUnchanged } from './unchanged-columns.js';

/** What RowService reads and writes through, and what it adds to rows read. */
export interface RowServiceOptions {
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  /** Name recorded in created_by/updated_by when a write names no actor (`--editor`). */
  editorName: string | null;
  registry: ContentTypeRegistry;
  writes: ContentWrites;
  /** One connection's statements, for reads run as reused prepared statements (SQLite). */
  runner?: StatementRunner;
  /** Run on every page and row read, after formatting, in order (a pending schedule). */
  decorators?: readonly RowDecorator[];
  /** Read beside every page's and row's rows, in the same statement, for the decorators. */
  extras?: readonly RowExtra[];
  /** The site's locales as the server holds them now (absent: one locale, English). */
  locales?: { readonly document: LocalesDocument };
}

/** How RowService.get reads a row; every member may be left out. */
export interface RowGetOptions {
  /** Records the read's phases for the Server-Timing header. */
  timer?: PhaseTimer;
  /** The types a credential may read (see `list`); null or absent: every type. */
  readable?: readonly string[] | null;
  /** The locale to read the row in; absent: the default locale. */
  locale?: RequestLocale;
  /** Read every stored column, as a conditional write's version needs; absent: only the locale's. */
  whole?: boolean;
}

/** A page of rows with the counts the list endpoint reports. */
export interface RowList {
  rows: ContentRow[];
  total: number;
  filtered: number;
  /** The content-type registry's version the page's statement saw, where it read one (see read-marks.ts). */
  registry?: number;
}

/** One row with its page's resolved SEO meta. */
export interface RowWithPageMeta {
  row: ContentRow;
  pageMeta: SeoMeta;
  total: number;
  /**
   * The stored row's version, which a conditional write compares (see rowVersion); made on demand,
   * of a row read whole only (see RowService.get).
   */
  version(): string;
  /** The content-type registry's version the row's statement saw, where it read one (see read-marks.ts). */
  registry?: number;
}

/**
 * Who writes a row: the name recorded in created_by/updated_by, and whether they may change only
 * rows they created (an author). Without one, the server's `--editor` name, with no limit.
 */
export interface RowActor {
  name: string | null;
  ownRowsOnly: boolean;
  /**
   * Content types the actor may read (tables or slugs; absent or null: all): a refused delete names
   * only their rows, and relations to other types read as null and may not be set (see `hiddenRelations`).
   */
  types?: readonly string[] | null;
  /**
   * Runs inside the write's transaction once its rows are written; throwing undoes the write (a
   * scheduled change takes its schedule here, so it is applied once).
   */
  inTransaction?: (trx: Kysely<QuireDatabase>) => Promise<void>;
  /** Why the actor writes when it is not a person's edit (a scheduled change firing), for the row's history. */
  origin?: RevisionOrigin;
}

/**
 * Adds to rows read what they carry besides their stored fields (a pending schedule).
 * `extras` holds, row by row, what the decorator's `RowExtra` read in the rows' own statement,
 * or is empty where that read did not run (read-cache pages, the in-memory search's pages).
 */
export type RowDecorator = (
  type: ContentType,
  rows: ContentRow[],
  extras: readonly Record<string, unknown>[],
) => Promise<void>;

/**
 * A write that puts an earlier version of a row back (a revision's or the trash's restore): it is
 * recorded as a restore of the version written at `from`, and a deleted row comes back with its
 * creation time and author.
 */
export interface RestoreWrite {
  from: string;
  created?: { at: string; by: string | null };
}

/** Runs of a write that lost a unique-index race to a concurrent writer, before it is a 409. */
const MAX_WRITE_ATTEMPTS = 5;

/** Largest page kept in the read cache (bigger ones are rare and would hold much memory). */
const CACHED_PAGE_LIMIT = 100;

/** The empty selection: every row of a table. */
const ALL_ROWS: RowSelection = { equals: [] };

/**
 * Reads and writes content rows: validation from the column descriptors, slug generation, meta,
 * system fields. Each write is one transaction, so a failed write changes nothing.
 *
 * Reads go through a long-lived repository that runs reused prepared statements (given a
 * `StatementRunner`), with exact counts and search pages served from a `ReadCache` that every write
 * here keeps true and that another process's commit empties.
 */
export class RowService {
  private readonly reader: ContentRepository;
  /** Reads while a write is in flight wait for the connection through Kysely. */
  private readonly queuedReader: ContentRepository;

  private readonly engine: DatabaseEngine;
  private readonly editorName: string | null;
  private readonly registry: ContentTypeRegistry;
  private readonly writes: ContentWrites;
  private readonly runner: StatementRunner | undefined;
  /** Run on every page and row read, after formatting (see RowDecorator). */
  private readonly decorators: readonly RowDecorator[];
  /** Read beside every page's and row's rows, in the same statement, for the decorators (see RowExtra). */
  private readonly extras: readonly RowExtra[];
  private readonly locales: { readonly document: LocalesDocument };

  constructor(options: RowServiceOptions) {
    const { db, engine, writes, runner } = options;
    this.engine = engine;
    this.editorName = options.editorName;
    this.registry = options.registry;
    this.writes = writes;
    this.runner = runner;
    this.decorators = options.decorators ?? [];
    this.extras = options.extras ?? [];
    this.locales = options.locales ?? { document: DEFAULT_LOCALES };
    // Reads never run direct statements on the connection while a write's transaction is open there.
    this.reader = new ContentRepository({ db: db, engine: engine, runner: writes.reads ?? runner });
    this.queuedReader = new ContentRepository({ db: db, engine: engine });
    this.slugs = new SlugPicker(writes);
    this.searchFlushes = new SearchFlushes({ writes, engine, runner });
  }

  /** Moves written rows into the search indexes, shortly after their writes (see SearchFlushes). */
  readonly searchFlushes: SearchFlushes;

  /** Picks the free slugs of creates and updates. */
  private readonly slugs: SlugPicker;

  /** The site's locales as rows are read and written in them now. */
  get localesDocument(): LocalesDocument {
    return this.locales.document;
  }

  /**
   * `requested` (absent: the default locale) with the locales it is one of, as rows are formatted in
   * it; a locale the site no longer lists is a 400 (see listedLocale).
   */
  private rowLocale(requested: RequestLocale | undefined): RowLocale {
    const document = this.locales.document;
    return {
      document,
      requested: requested ? listedLocale(document, requested) : { kind: 'one', code: document.default },
    };
  }

  /** The read cache every write keeps true (null when reads are not run as direct statements). */
  private get cache() {
    return this.writes.cache;
  }

  /**
   * A page of rows plus `total` (all rows) and `filtered` (rows matching the selection), as a
   * credential limited to `readable` content types (null: all) sees them (see `hiddenRelations`).
   */
  async list(
    type: ContentType,
    options: ListOptions,
    timer?: PhaseTimer,
    readable: readonly string[] | null = null,
  ): Promise<RowList> {
    const { selection, page } = options;
    const repository = this.readerNow();
    timer?.lap('filter');
    const locale = this.rowLocale(options.locale);
    const columns = selectedColumns(type, locale);
    const pageLocale = columns && locale.requested.kind === 'one' ? `\u0000${locale.requested.code}` : '';
    const readPage = () => repository.listMarked(type.table, selection, page, this.extras, columns);
    // Pages up to CACHED_PAGE_LIMIT rows are kept until a write (a search costs an index query,
    // even an indexed listing costs more than the lookup). Pages are cached as stored rows:
    // relations are resolved afresh, as related rows may change and credentials differ in which
    // they may follow. A page of one locale's columns is kept under that locale.
    const read =
      this.cache && page.limit <= CACHED_PAGE_LIMIT
        ? unmarked(
            await this.cache.page(
              type,
              `${selectionKey(selection)}${JSON.stringify(page)}${pageLocale}`,
              async () => (await readPage()).rows,
            ),
          )
        : await readPage();
    const stored = read.rows;
    const relations = await resolveRelations(type, stored, this.registry, repository, readable, locale);
    timer?.lap('data');
    const { total, filtered } = await this.countsOf(repository, type, selection, read.marks);
    timer?.lap('count');
    const rows = stored.map((row) => formatRow(type, row, relations, locale));
    for (const decorate of this.decorators) await decorate(type, rows, read.extras);
    timer?.lap('format');
    return { rows, total, filtered, registry: read.marks?.registry };
  }

  /**
   * One row by id with its page meta, or a 404, as a credential limited to `readable` sees it (see
   * `list`), in `locale` (absent: the default locale). Unless `whole`, a type with localized
   * columns reads only the locale's (see selectedColumns), and the row has no `version`: that is
   * the whole stored row's, which a conditional write compares.
   */
  async get(type: ContentType, id: string, options: RowGetOptions = {}): Promise<RowWithPageMeta> {
    const { timer, readable = null, locale, whole = false } = options;
    const repository = this.readerNow();
    timer?.lap('filter');
    const inLocale = this.rowLocale(locale);
    const columns = whole ? null : selectedColumns(type, inLocale);
    const read = await repository.findByIdMarked(type.table, id, this.extras, columns);
    timer?.lap('data');
    const stored = read.rows[0];
    if (!stored) throw notFound(type, id);
    const { total } = await this.countsOf(repository, type, ALL_ROWS, read.marks);
    timer?.lap('count');
    const relations = await resolveRelations(type, [stored], this.registry, repository, readable, inLocale);
    const row = formatRow(type, stored, relations, inLocale);
    const pageMeta = resolvePageMeta(row as StoredRow, row.meta, type.titleColumn, this.locales.document.default);
    for (const decorate of this.decorators) await decorate(type, [row], read.extras);
    timer?.lap('format');
    const version = () => {
      if (columns) throw new Error(`${type.table} ${id}: a row read in one locale has no version (read it whole)`);
      return rowVersion(stored);
    };
    return { row, pageMeta, total, version, registry: read.marks?.registry };
  }

  /**
   * Creates a row from a write body, with the given id or a generated one, its localized fields
   * written in `locale` (absent: the default locale; see parseRowInput).
   */
  async create(
    type: ContentType,
    body: unknown,
    id?: string,
    actor?: RowActor,
    restore?: RestoreWrite,
    locale?: RequestLocale,
  ): Promise<ContentRow> {
    if (id !== undefined && !isValidRowId(id)) {
      throw validationError({ id: { code: 'not_a_row_id' } });
    }
    const readable = actor?.types ?? null;
    const inLocale = this.rowLocale(locale);
    const input = parseRowInput(type, body, 'create', hiddenRelations(type, this.registry, readable), inLocale);
    refuseHiddenPointers(type, input.values, this.registry, readable);
    return this.write(type, 'create', actor, restore, async (repository, write, lockSlugs, attempt, lock) => {
      if (type.kind === 'single') await refuseSecondRow(type, repository, lock);
      const rowId = id ?? newRowId();
      if (id !== undefined && (await repository.findById(type.table, id))) {
        throw new AppError('conflict', `A ${type.table} row with id ${JSON.stringify(id)} already exists`, {
          id: { code: 'taken' },
        });
      }
      const now = timestampNow();
      // Slugs generated in other locales go into this run's copy: a run again starts from what was sent.
      const locales = { document: inLocale.document, localized: copyOfLocalized(input.localized) };
      const values = await this.slugs.assign(
        repository,
        type,
        input,
        null,
        rowId,
        lockSlugs,
        write,
        attempt === 1,
        locales,
      );
      await checkRelationTargets(type, values, this.registry, repository);
      const stored = newStoredRow(type, rowId, values, input, now, actor ? actor.name : this.editorName);
      Object.assign(stored, localizedStored(type, inLocale.document, null, stored, locales.localized));
      if (restore?.created) {
        stored.created_at = restore.created.at;
        stored.created_by = restore.created.by;
      }
      await repository.insert(type.table, stored);
      await repository.rowWritten(type.table, type.searchColumns, stored);
      write.changes.push({
        before: null,
        after: stored,
        idChosen: id !== undefined,
        ...localesTouched(type, inLocale.document, null, stored),
      });
      const relations = await resolveRelations(type, [stored], this.registry, repository, readable, inLocale);
      return formatRow(type, stored, relations, inLocale);
    });
  }

  /**
   * Changes the fields a write body names; the others keep their values. `check` (a conditional
   * write) is held against the row as the write's transaction finds it. Localized fields are
   * written in `locale`, as `create` writes them.
   */
  async update(
    type: ContentType,
    id: string,
    body: unknown,
    actor?: RowActor,
    restore?: RestoreWrite,
    check?: WriteCheck,
    locale?: RequestLocale,
  ): Promise<ContentRow> {
    const readable = actor?.types ?? null;
    const inLocale = this.rowLocale(locale);
    const input = parseRowInput(type, body, 'update', hiddenRelations(type, this.registry, readable), inLocale);
    refuseHiddenPointers(type, input.values, this.registry, readable);
    return this.write(type, 'change', actor, restore, async (repository, write, lockSlugs) => {
      // Locked until commit where writers run in parallel: a second write of the row reads it as this one leaves it.
      const current = await repository.findForWrite(type.table, id);
      if (!current) throw notFound(type, id);
      assertMayChange(type, current, actor);
      checkBeforeWrite(check, current);
      requireShownColumns(type, input.values, current);
      const locales = { document: inLocale.document, localized: copyOfLocalized(input.localized) };
      const values = await this.slugs.assign(
        repository,
        type,
        input,
        current,
        id,
        lockSlugs,
        undefined,
        false,
        locales,
      );
      await checkRelationTargets(type, values, this.registry, repository);
      const changes: StoredRow = {};
      for (const [name, value] of values) changes[name] = toStored(type, name, value);
      if (input.meta !== undefined) {
        const meta = applyMetaPatch(parseStoredMeta(current.meta), input.meta);
        changes.meta = meta === null ? null : JSON.stringify(meta);
      }
      Object.assign(changes, localizedStored(type, inLocale.document, current, changes, locales.localized));
      withoutUnchanged(changes, current);
      withSearchTexts(type.columns, changes);
      changes.updated_at = timestampNow();
      changes.updated_by = actor ? actor.name : this.editorName;
      await repository.update(type.table, id, changes);
      const updated = { ...current, ...changes };
      // Read back as stored: the version must be the one the next read computes.
      if (check?.written) check.written(rowVersion((await repository.findById(type.table, id)) ?? updated));
      await repository.rowWritten(type.table, type.searchColumns, updated);
      write.changes.push({
        before: current,
        after: updated,
        ...localesTouched(type, inLocale.document, current, updated),
      });
      const relations = await resolveRelations(type, [updated], this.registry, repository, readable, inLocale);
      return formatRow(type, updated, relations, inLocale);
    });
  }

  /** Deletes a row and returns what it held (in `locale`); `check` as for `update`. */
  async delete(
    type: ContentType,
    id: string,
    actor?: RowActor,
    check?: WriteCheck,
    locale?: RequestLocale,
  ): Promise<ContentRow> {
    return this.write(type, 'change', actor, undefined, async (repository, write) => {
      const current = await repository.findForWrite(type.table, id);
      if (!current) throw notFound(type, id);
      assertMayChange(type, current, actor);
      checkBeforeWrite(check, current);
      const readable = actor?.types ?? null;
      await assertNotReferenced(type, id, this.registry, repository, readable);
      const inLocale = this.rowLocale(locale);
      const relations = await resolveRelations(type, [current], this.registry, repository, readable, inLocale);
      const row = formatRow(type, current, relations, inLocale);
      await repository.delete(type.table, id);
      write.changes.push({ before: current, after: null });
      return row;
    });
  }

  /**
   * Runs a write in one transaction through the one write path (see ContentWrites); a
   * unique-constraint race becomes a 409, not a 500. Committed rows reach the search index soon.
   */
  private async write<T>(
    type: ContentType,
    kind: 'create' | 'change',
    actor: RowActor | undefined,
    restore: RestoreWrite | undefined,
    work: (
      repository: ContentRepository,
      write: WriteLog,
      lockSlugs: (column: string, base: string) => Promise<void>,
      attempt: number,
      lock: (key: string) => Promise<void>,
    ) => Promise<T>,
  ): Promise<T> {
    const by = actor ? actor.name : this.editorName;
    const scope: RowScope = {
      type,
      onlyAdds: kind === 'create',
      by,
      restore: restore !== undefined,
      restoredFrom: restore?.from ?? null,
      origin: restore ? 'restore' : actor?.origin,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await this.writes.run(scope, async (trx, log) => {
          // The transaction's statements run on its connection directly, like reads (Kysely builds them).
          const repository = new ContentRepository({ db: trx, engine: this.engine, runner: this.runner });
          const lock = (key: string) => this.engine.lockUntilCommit(trx as unknown as Kysely<unknown>, key);
          const value = await work(
            repository,
            log,
            (column, base) => lock(`slugs:${type.table}:${column}:${base}`),
            attempt,
            lock,
          );
          await actor?.inTransaction?.(trx);
          // Where other servers may change content types, the write ran on `type` as loaded here:
          // checked with its COMMIT (the caller runs it again on the types as they are now).
          if (this.registry.shared) {
            await this.engine.registryCheck?.check(trx as unknown as Kysely<unknown>, this.registry.versionOf(type));
          }
          return value;
        });
        this.searchFlushes.schedule(type);
        return result;
      } catch (error) {
        // A statement prepared before another server changed the table's columns failed: nothing
        // was kept, and run again the write's statements are prepared anew.
        if (this.engine.isStaleStatement(error) && attempt < MAX_WRITE_ATTEMPTS) continue;
        if (this.engine.registryCheck?.isTypesChanged(error)) {
          throw new AppError(
            'conflict',
            `The content type ${type.table} changed while this write ran; nothing was saved`,
          );
        }
        if (!this.engine.isUniqueViolation(error)) throw error;
        // Writers in parallel (PostgreSQL) can each pick the same free slug or id; the loser's unique
        // index waits for the winner's commit and then refuses. Nothing of the write was kept, so it
        // runs again, now seeing the winner's row: a generated slug moves on to the next free one, and
        // a slug or id the request named is refused as taken, with its field.
        if (attempt < MAX_WRITE_ATTEMPTS) continue;
        throw new AppError('conflict', 'The row conflicts with an existing row');
      }
    }
  }

  /**
   * Exact `total` and `filtered` of a selection: each from the read cache when there is one,
   * otherwise as the repository counts them (together, kept while no server writes the table).
   */
  private async countsOf(
    repository: ContentRepository,
    type: ContentType,
    selection: RowSelection,
    marks: ReadMarks | null,
  ) {
    const cache = this.cache;
    if (!cache) return repository.counts(type.table, selection, marks);
    const countOf = (what: RowSelection) => cache.count(type, what, () => repository.count(type.table, what));
    const total = await countOf(ALL_ROWS);
    const unfiltered = selection.equals.length === 0 && !selection.search;
    return { total, filtered: unfiltered ? total : await countOf(selection) };
  }

  /** The reader to use now: direct statements, unless a write holds the connection. */
  private readerNow(): ContentRepository {
    const writing = this.writes.writing; // also brings the read cache in step with other processes
    // A reader on ContentWrites.reads queues each statement behind an open write by itself, and keeps
    // the paths that need a runner (the in-memory search) while writes are merely waiting.
    return writing && !this.writes.reads ? this.queuedReader : this.reader;
  }
}

/** A write's values in other locales (see RowInput.localized), to fill in without changing what was sent. */
function copyOfLocalized(localized: RowInput['localized']): RowInput['localized'] {
  return new Map([...localized].map(([code, values]) => [code, new Map(values)]));
}

/**
 * What a row change records of its localized values: `locales`, which locales' own values of which
 * localized columns it changed; nothing for a type without localized columns.
 */
function localesTouched(
  type: ContentType,
  document: LocalesDocument,
  before: StoredRow | null,
  after: StoredRow,
): { locales?: Record<string, string[]> } {
  if (!type.columns.some((column) => column.localized === true)) return {};
  return { locales: localizedChanges(type, document, before, after) };
}

/** Whether `actor` may change a row `createdBy` created (the rule of access-rules.ts); no actor: the server itself. */
export function actorMayChange(actor: RowActor | undefined, createdBy: unknown): boolean {
  return !actor || mayChangeRow({ change_any_row: !actor.ownRowsOnly, change_own_rows: true }, actor.name, createdBy);
}

/** An author may change and delete only rows they created (checked inside the write: nothing changes). */
function assertMayChange(type: ContentType, current: StoredRow, actor: RowActor | undefined): void {
  if (!actor || actorMayChange(actor, current.created_by)) return;
  throw new AppError(
    'forbidden',
    `${actor.name ?? 'An author'} may change only rows they created; this ${type.table} row is not theirs`,
  );
}

/**
 * A single type's one row exists already: a create (a POST, a restore from the trash) is refused.
 * Creates of the type queue on one lock until commit, so two first writes in parallel make one row.
 */
async function refuseSecondRow(
  type: ContentType,
  repository: ContentRepository,
  lock: (key: string) => Promise<void>,
): Promise<void> {
  await lock(`single:${type.table}`);
  if ((await repository.count(type.table, ALL_ROWS)) === 0) return;
  throw new AppError(
    'single_row_type',
    `${type.title} is a single type: it holds one row, which PUT /api/cms/${type.table} changes`,
  );
}

function notFound(type: ContentType, id: string): AppError {
  return new AppError('not_found', `There is no ${type.table} row with id ${JSON.stringify(id)}`);
}
