import type { Kysely } from 'kysely';
import { SYSTEM_FIELDS } from '../../common/api-contract.js';
import { timestampNow } from '../../common/datetime-syntax.js';
import type {
  RestoreResponse,
  RevisionListResponse,
  RevisionResponse,
  RevisionSummary,
  TrashListResponse,
  TypeChangeListResponse,
} from '../../common/revision-contract.js';
import { flatMetaName, META_KEYS } from '../../common/row-fields.js';
import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { resolveRelations } from '../content/relations.js';
import { formatRow, type RowLocale } from '../content/row-format.js';
import { actorMayChange, type RowActor, type RowService } from '../content/row-service.js';
import type { DatabaseEngine } from '../db/engine.js';
import { ContentRepository, type StoredRow } from '../db/repositories/content-repository.js';
import { type Page, RevisionRepository, type RevisionRow } from '../db/repositories/revision-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import type { RequestLocale } from '../locales/locale-parameter.js';
import { localizedColumnsOf } from '../locales/localized-values.js';
import type { RevisionRetention } from './revision-record.js';
import { LOCALE_MARK } from './revision-record.js';
import { typeChangeOf } from './type-change-log.js';

export { DEFAULT_TRASH_DAYS, type RevisionOptions } from './revision-record.js';

/** How often the trash and old revisions are purged while the server runs. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** What RevisionService reads from and restores through. */
export interface RevisionServiceOptions {
  db: Kysely<QuireDatabase>;
  engine: DatabaseEngine;
  registry: ContentTypeRegistry;
  rows: RowService;
  /** How revisions and the trash are kept: the same the recording observer keeps them by. */
  retention: RevisionRetention;
}

/** Names a stored row carries that are not content fields: never "dropped" by a restore. */
const NOT_FIELDS: ReadonlySet<string> = new Set([...SYSTEM_FIELDS, 'meta', ...META_KEYS.map(flatMetaName)]);

/**
 * A row's history and the trash. Every row write records a revision in its own transaction (the
 * `revisionRecorder` observer of ContentWrites); this service reads them, restores them as a new
 * write through RowService (so a restore is validated like any write and is itself a revision),
 * and purges the trash and, with `keepRevisions`, old revisions.
 */
export class RevisionService {
  readonly trashDays: number;
  private readonly keepRevisions: number | null;
  private readonly retention: RevisionRetention;
  private readonly db: Kysely<QuireDatabase>;
  private readonly engine: DatabaseEngine;
  private readonly registry: ContentTypeRegistry;
  private readonly rows: RowService;
  private timer: NodeJS.Timeout | null = null;

  constructor(options: RevisionServiceOptions) {
    this.db = options.db;
    this.engine = options.engine;
    this.registry = options.registry;
    this.rows = options.rows;
    this.retention = options.retention;
    this.trashDays = options.retention.trashDays;
    this.keepRevisions = options.retention.keepRevisions;
  }

  /** A row's revisions, newest first (also those of a deleted row). */
  async list(type: ContentType, rowId: string, page: Page): Promise<RevisionListResponse> {
    const repository = new RevisionRepository(this.db);
    const [found, total] = await Promise.all([
      repository.listForRow(type.table, rowId, page),
      repository.countForRow(type.table, rowId),
    ]);
    if (total === 0 && !(await this.exists(type, rowId))) throw noRow(type, rowId);
    return { total, limit: page.limit, offset: page.offset, revisions: found.map(summary) };
  }

  /**
   * One revision's snapshot in the type's row shape as it is now, as a credential limited to
   * `readable` content types (null: all) reads rows (see `hiddenRelations`).
   */
  async get(
    type: ContentType,
    rowId: string,
    revisionId: number,
    readable: readonly string[] | null = null,
    locale?: RequestLocale,
  ): Promise<RevisionResponse> {
    const revision = await this.revision(type, rowId, revisionId);
    const snapshot = parseSnapshot(revision);
    const relations = await resolveRelations(type, [snapshot], this.registry, this.reader(), readable);
    const document = this.rows.localesDocument;
    const inLocale: RowLocale = { document, requested: locale ?? { kind: 'one', code: document.default } };
    return {
      revision: summary(revision),
      row: formatRow(type, snapshot, relations, inLocale),
      dropped: droppedFields(type, snapshot),
      exists: await this.exists(type, rowId),
    };
  }

  /**
   * Writes a revision's snapshot back as a new change (recorded as a restore): over the row when
   * it exists, else bringing it back with its id, creation time and author. It is checked like any
   * write: a slug another row took since is a 409, a related row that is gone or a required field
   * without a value a 400, and an author may restore only rows they created. Fields the type no
   * longer has are dropped and named.
   */
  async restore(
    type: ContentType,
    rowId: string,
    revisionId: number,
    actor?: RowActor,
    answerIn?: RequestLocale,
  ): Promise<RestoreResponse> {
    const revision = await this.revision(type, rowId, revisionId);
    const snapshot = parseSnapshot(revision);
    // Every locale's own values come back, resolved along the chains the site has now.
    const locale: RowLocale = { document: this.rows.localesDocument, requested: { kind: 'all' } };
    const body = restoreBody(type, snapshot, locale);
    let row: RestoreResponse['row'];
    if (await this.exists(type, rowId)) {
      row = await this.rows.update(
        type,
        rowId,
        body,
        actor,
        { from: revision.changed_at },
        undefined,
        locale.requested,
      );
    } else {
      const createdBy = typeof snapshot.created_by === 'string' ? snapshot.created_by : null;
      if (actor && !actorMayChange(actor, createdBy)) {
        throw new AppError(
          'forbidden',
          `${actor.name ?? 'An author'} may restore only rows they created; this ${type.table} row is not theirs`,
        );
      }
      const created = { at: String(snapshot.created_at ?? timestampNow()), by: createdBy };
      row = await this.rows.create(type, body, rowId, actor, { from: revision.changed_at, created }, locale.requested);
    }
    // The row as restored, read in the locale asked for (the write itself was in every locale).
    if (localizedColumnsOf(type.columns).length > 0) {
      row = (await this.rows.get(type, rowId, { readable: actor?.types ?? null, locale: answerIn })).row;
    }
    const newest = await new RevisionRepository(this.db).newest(type.table, rowId);
    if (!newest) throw new AppError('internal_error', 'The restore was written but recorded no revision');
    return { row, revision: summary(newest), dropped: droppedFields(type, snapshot) };
  }

  /** The type's deleted rows still within the retention, most recently deleted first. */
  async trash(type: ContentType, page: Page): Promise<TrashListResponse> {
    const repository = new RevisionRepository(this.db);
    const since = this.trashSince();
    const [found, total] = await Promise.all([
      repository.trash(type.table, since, page),
      repository.trashCount(type.table, since),
    ]);
    const rows = found.map((revision) => {
      const snapshot = parseSnapshot(revision);
      const title = type.titleColumn === null ? null : snapshot[type.titleColumn];
      return {
        id: revision.row_id,
        title: typeof title === 'string' ? title : title == null ? null : String(title),
        deleted_at: revision.changed_at,
        deleted_by: revision.changed_by,
        purge_at: this.retention.purgeAt(revision.changed_at),
        revision: revision.id,
      };
    });
    return { total, limit: page.limit, offset: page.offset, retention_days: this.trashDays, rows };
  }

  /** Brings a row back from the trash: the same as restoring its delete's revision. */
  async restoreFromTrash(
    type: ContentType,
    rowId: string,
    actor?: RowActor,
    answerIn?: RequestLocale,
  ): Promise<RestoreResponse> {
    const newest = await new RevisionRepository(this.db).newest(type.table, rowId);
    if (newest?.action !== 'delete' || newest.changed_at < this.trashSince()) {
      throw new AppError('not_found', `There is no ${type.table} row with id ${JSON.stringify(rowId)} in the trash`);
    }
    return this.restore(type, rowId, newest.id, actor, answerIn);
  }

  /**
   * Purges rows deleted longer ago than the retention (all their revisions) and, with
   * `keepRevisions`, every row's revisions beyond its newest ones. The newest revision of a row
   * that exists is never removed.
   */
  async purge(): Promise<{ trash: number; revisions: number }> {
    const repository = new RevisionRepository(this.db);
    const trash = await repository.purgeTrash(this.trashSince());
    const revisions = this.keepRevisions === null ? 0 : await repository.purgeBeyond(this.keepRevisions);
    return { trash, revisions };
  }

  /** Content-type changes, newest first: of one type (by slug), or of all. */
  async typeChanges(slug: string | null, page: Page): Promise<TypeChangeListResponse> {
    const { rows, total } = await new RevisionRepository(this.db).listTypeChanges(slug, page);
    return { total, limit: page.limit, offset: page.offset, changes: rows.map(typeChangeOf) };
  }

  /** Purges now, then every hour until `stop`; a failed purge is reported and tried again next time. */
  async start(log: (message: string, error: unknown) => void): Promise<void> {
    const run = () => this.purge().catch((error) => log('Purging the trash failed:', error));
    await run();
    this.timer = setInterval(run, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private trashSince(): string {
    return this.retention.trashSince();
  }

  private async revision(type: ContentType, rowId: string, revisionId: number): Promise<RevisionRow> {
    const revision = await new RevisionRepository(this.db).find(type.table, rowId, revisionId);
    if (!revision) {
      throw new AppError(
        'not_found',
        `There is no revision ${revisionId} of the ${type.table} row with id ${JSON.stringify(rowId)}`,
      );
    }
    return revision;
  }

  private reader(): ContentRepository {
    return new ContentRepository({ db: this.db, engine: this.engine });
  }

  private async exists(type: ContentType, rowId: string): Promise<boolean> {
    return (await this.reader().findById(type.table, rowId)) !== undefined;
  }
}

/**
 * A revision as the API lists it. Its recorded names are fields, and `field@locale` where a
 * localized field's value in that locale changed: `fields` names each field once, `locales` (only
 * where there are any) which fields changed in which locale.
 */
function summary(revision: RevisionRow): RevisionSummary {
  const fields: string[] = [];
  const locales: Record<string, string[]> = {};
  for (const name of JSON.parse(revision.changed) as string[]) {
    const at = name.indexOf(LOCALE_MARK);
    const field = at < 0 ? name : name.slice(0, at);
    if (!fields.includes(field)) fields.push(field);
    if (at >= 0) {
      const code = name.slice(at + 1);
      locales[code] = [...(locales[code] ?? []), field];
    }
  }
  return {
    id: revision.id,
    action: revision.action,
    fields,
    ...(Object.keys(locales).length > 0 ? { locales } : {}),
    by: revision.changed_by,
    at: revision.changed_at,
    origin: revision.origin,
    restored_from: revision.restored_from,
  };
}

function parseSnapshot(revision: RevisionRow): StoredRow {
  return JSON.parse(revision.snapshot) as StoredRow;
}

/**
 * The snapshot as a write body of the type now in `locale`: its fields in their JSON form (each
 * localized field as every locale's own value), meta as a whole.
 */
function restoreBody(type: ContentType, snapshot: StoredRow, locale: RowLocale): Record<string, unknown> {
  const formatted = formatRow(type, snapshot, undefined, locale) as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const column of type.columns) {
    // A field added since the snapshot keeps the row's value (or its default, for a row brought back).
    if (Object.hasOwn(snapshot, column.name)) body[column.name] = formatted[column.name];
  }
  body.meta = formatted.meta ?? null;
  return body;
}

/** Fields the snapshot holds that the type no longer has. */
function droppedFields(type: ContentType, snapshot: StoredRow): string[] {
  return Object.keys(snapshot).filter((name) => !NOT_FIELDS.has(name) && !type.columnsByName.has(name));
}

function noRow(type: ContentType, rowId: string): AppError {
  return new AppError(
    'not_found',
    `There is no ${type.table} row with id ${JSON.stringify(rowId)}, nor any revision of one`,
  );
}
