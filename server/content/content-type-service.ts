import { isDeepStrictEqual } from 'node:util';
import type { Kysely } from 'kysely';
import type { ColumnChange, ColumnDescriptor, ContentTypeKind, ContentTypeSummary } from '../../common/api-contract.js';
import { columnsWithin } from '../../common/block-rules.js';
import { typeChangeAllowed } from '../../common/column-type-changes.js';
import { timestampNow } from '../../common/datetime-syntax.js';
import { type FieldProblem, type FieldProblems, hasProblems, noProblems } from '../../common/field-problems.js';
import { tableFromSlug } from '../../common/naming-rules.js';
import { recordTypeChangeInFeed } from '../changes/change-feed-service.js';
import type { DatabaseEngine } from '../db/engine.js';
import { ContentRepository } from '../db/repositories/content-repository.js';
import {
  alterContentTable,
  countRowsWithValues,
  createContentTable,
  type DroppedLocaleValues,
  dropContentTable,
  type TableChange,
} from '../db/repositories/content-schema-repository.js';
import { type ContentTypeRecord, ContentTypeRepository } from '../db/repositories/content-type-repository.js';
import { RevisionRepository } from '../db/repositories/revision-repository.js';
import { ScheduleRepository } from '../db/repositories/schedule-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError, validationError } from '../errors/app-error.js';
import { claimLocales } from '../locales/locale-service.js';
import { localizedColumnsOf } from '../locales/localized-values.js';
import { recordTypeChange, typeChangeDetail } from '../revisions/type-change-log.js';
import { moveRenamedBlockValues, planBlockChanges, withoutBlockRenames } from './block-changes.js';
import { type ContentType, changedContentType, contentTypeFromRecord, summarize } from './content-type.js';
import {
  bodyObject,
  freeTypeSlug,
  readColumns,
  readKind,
  readPreviewPath,
  readTitle,
  readTypeSlug,
  refuseUnknownMembers,
  tableNameProblem,
} from './content-type-input.js';
import type { ContentTypeRegistry } from './content-type-registry.js';
import type { ContentWrites } from './content-writes.js';
import { conversionsOf, convertColumns } from './richtext-type-change.js';

/**
 * Creates, changes and deletes content types. Each change migrates the real table and the registry
 * inside one transaction, then reloads the registry: a change that fails leaves schema and data as
 * they were.
 */
export class ContentTypeService {
  private readonly writes: ContentWrites;
  private readonly registry: ContentTypeRegistry;
  private readonly engine: DatabaseEngine;

  constructor(options: { writes: ContentWrites; registry: ContentTypeRegistry; engine: DatabaseEngine }) {
    this.writes = options.writes;
    this.registry = options.registry;
    this.engine = options.engine;
  }

  /** `POST /api/cms-content`: a new custom type with its table; `by` is recorded in the change log. */
  create(rawBody: unknown, by: string | null = null): Promise<ContentTypeSummary> {
    return this.writes.changeSchema(async () => {
      await this.registry.follow();
      const body = bodyObject(rawBody);
      refuseUnknownMembers(body, ['title', 'slug', 'table', 'type', 'columns', 'preview_path']);
      const problems = noProblems();
      const title = readTitle(body.title, problems);
      const kind = readKind(body.type, 'collection', problems);
      const slug = readTypeSlug(body.slug, title, problems);
      const table = typeof body.table === 'string' && body.table !== '' ? body.table : tableFromSlug(slug);
      const tableProblem = tableNameProblem(table);
      if (tableProblem) problems.table = tableProblem;
      const previewPath = readPreviewPath(body.preview_path, problems);
      if (hasProblems(problems)) throw validationError(problems);
      const columns = readColumns(body.columns, { knownTypes: this.knownSlugs(), ownSlug: slug, allowFrom: false });

      let record: ContentTypeRecord | undefined;
      await this.writes.run({ schema: true }, async (trx) => {
        await claimRegistry(trx, this.registry);
        await refuseTakenNames(trx, this.engine, this.registry.list(), slug, table);
        const type = { slug, table, title: title as string, kind, columns, previewPath, custom: true, flatMeta: false };
        record = await insertContentType(trx, this.engine, type, by);
      });
      const reloaded = await this.registry.reloadAfterCommit();
      return summarize(reloaded || !record ? this.registry.requireBySlug(slug) : contentTypeFromRecord(record));
    });
  }

  /**
   * `PUT /api/cms-content/:slug`: change the title, the preview path, or the columns. `check` (a
   * conditional write) is held against the type as it is when this change's turn comes: throwing
   * changes nothing.
   */
  update(
    slug: string,
    rawBody: unknown,
    by: string | null = null,
    check?: (type: ContentType) => void,
  ): Promise<ContentTypeSummary> {
    return this.writes.changeSchema(async () => {
      await this.registry.follow();
      const type = this.registry.requireBySlug(slug);
      check?.(type);
      const body = bodyObject(rawBody);
      // The body GET returns is accepted: its server-set members are ignored while unchanged, and a
      // list entry's `version` too (a conditional change names it in If-Match).
      refuseUnknownMembers(body, ['title', 'type', 'columns', 'preview_path', ...READ_ONLY_MEMBERS, 'rows', 'version']);
      const problems = noProblems();
      refuseChangedMembers(body, summarize(type), problems);
      const title = body.title === undefined ? type.title : readTitle(body.title, problems);
      const kind = readKind(body.type, type.kind, problems);
      const previewPath =
        body.preview_path === undefined ? type.previewPath : readPreviewPath(body.preview_path, problems);
      if (hasProblems(problems)) throw validationError(problems);
      let columns =
        body.columns === undefined
          ? undefined
          : readColumns(body.columns, { knownTypes: this.knownSlugs(), ownSlug: type.slug, allowFrom: true });
      if (columns && sameColumns(columns, type.columns)) columns = undefined;
      // Block columns follow the same keep, rename and drop rules inside each blocks column.
      const blockChanges = columns ? planBlockChanges(type.columnsByName, columns) : [];

      let committed: ContentType | undefined;
      await this.writes.run({ schema: true }, async (trx) => {
        await claimRegistry(trx, this.registry);
        // Taken before any read of the table, so a change of the locales (which takes them first,
        // then alters the table) never waits on this change while it waits on that one.
        const localized = isLocalized(type.columns) || (columns !== undefined && isLocalized(columns));
        const locales = localized ? await claimLocales(trx) : undefined;
        let descriptors: ColumnDescriptor[] = [...type.columns];
        let droppedValues: DroppedLocaleValues[] = [];
        const conversions = columns ? conversionsOf(type, columns) : [];
        if (kind === 'single' && type.kind !== 'single') await refuseManyRows(trx, this.engine, type);
        if (columns) {
          const change = planTableChange(type, columns);
          change.locales = locales;
          await this.refuseRemovingUsedOptions(schemaOf(trx), type, columns);
          droppedValues = await alterContentTable(schemaOf(trx), this.engine, type.table, change, async () => {
            await convertColumns(schemaOf(trx), type.table, conversions);
            await moveRenamedBlockValues(
              new ContentRepository({ db: trx, engine: this.engine }),
              type.table,
              blockChanges,
            );
          });
          descriptors = change.columns.map(withoutBlockRenames);
        }
        await new ContentTypeRepository(trx).update(type.id, {
          title: title as string,
          type: kind,
          preview_path: previewPath,
          columns: JSON.stringify(descriptors),
          updated_at: timestampNow(),
        });
        const before = { title: type.title, kind: type.kind, previewPath: type.previewPath, columns: type.columns };
        const after = {
          title: title as string,
          kind,
          previewPath,
          columns: columns?.map(withoutBlockRenames) ?? type.columns,
        };
        const detail = typeChangeDetail(before, after);
        const droppedInBlocks = blockChanges.flatMap((change) => change.dropped);
        if (droppedInBlocks.length > 0) detail.dropped = [...(detail.dropped ?? []), ...droppedInBlocks];
        if (conversions.length > 0) detail.converted = conversions;
        if (droppedValues.length > 0) detail.dropped_values = droppedValues;
        if (Object.keys(detail).length > 0) {
          await recordTypeChange(trx, type.slug, 'update', detail, by);
          await recordTypeChangeInFeed(trx, this.engine, type.table, by);
        }
        committed = changedContentType(type, { title: title as string, kind, previewPath, columns: descriptors });
      });
      const reloaded = await this.registry.reloadAfterCommit();
      return summarize(reloaded || !committed ? this.registry.requireBySlug(slug) : committed);
    });
  }

  /**
   * `DELETE /api/cms-content/:slug`: refused while rows exist unless `force`, and while others point
   * at it; `check` as for `update`.
   */
  delete(
    slug: string,
    force: boolean,
    by: string | null = null,
    check?: (type: ContentType) => void,
  ): Promise<ContentTypeSummary> {
    return this.writes.changeSchema(async () => {
      await this.registry.follow();
      const type = this.registry.requireBySlug(slug);
      check?.(type);
      const pointing = relationsPointingAt(this.registry.list(), [type.slug]);
      if (pointing.length > 0) {
        throw new AppError(
          'conflict',
          `Relation columns still point at ${type.slug}: ${pointing.join(', ')}; remove them first`,
        );
      }
      await this.writes.run({ schema: true }, async (trx) => {
        await claimRegistry(trx, this.registry);
        const rowCount = await new ContentRepository({ db: trx, engine: this.engine }).count(type.table, {
          equals: [],
        });
        if (rowCount > 0 && !force) {
          throw new AppError(
            'conflict',
            `${type.title} still has ${rowCount} row${rowCount === 1 ? '' : 's'}; delete them first or pass force=true`,
          );
        }
        await removeContentType(trx, this.engine, type, by);
      });
      await this.registry.reloadAfterCommit();
      return summarize(type);
    });
  }

  private knownSlugs(): Set<string> {
    return new Set(this.registry.list().map((type) => type.slug));
  }

  /** A select option may not go while rows still hold it: their values would become invalid. */
  private async refuseRemovingUsedOptions(
    db: Kysely<unknown>,
    type: ContentType,
    columns: ColumnChange[],
  ): Promise<void> {
    for (const column of columns) {
      const old = type.columnsByName.get(column.from ?? column.name);
      if (old?.type !== 'select' || column.type !== 'select') continue;
      const kept = new Set((column.options ?? []).map((option) => option.id));
      const removed = (old.options ?? []).map((option) => option.id).filter((id) => !kept.has(id));
      const used = await countRowsWithValues(db, type.table, old.name, removed);
      if (used > 0) {
        throw conflict(
          column.name,
          `${used} row${used === 1 ? '' : 's'} of ${type.table} still use${used === 1 ? 's' : ''} the option${removed.length === 1 ? '' : 's'} ${removed.join(', ')} of ${column.name}`,
          { code: 'option_in_use', count: used, options: removed },
        );
      }
    }
  }
}

/**
 * Takes the registry for a content-type change (its version row stays locked until commit) and
 * refuses when another server changed content types after this one planned the change.
 */
export async function claimRegistry(trx: Kysely<QuireDatabase>, registry: ContentTypeRegistry): Promise<void> {
  const version = await new ContentTypeRepository(trx).bumpVersion();
  if (version !== registry.version + 1) {
    throw new AppError(
      'conflict',
      'Another server changed the content types at the same moment; nothing was changed, so send the change again',
    );
  }
}

/** What a new content type is made of. */
export interface NewContentType {
  slug: string;
  table: string;
  title: string;
  /** Absent: a collection. */
  kind?: ContentTypeKind;
  columns: readonly ColumnDescriptor[];
  previewPath: string | null;
  /** Made by hand (false: a starter type Quire made). */
  custom: boolean;
  flatMeta: boolean;
}

/**
 * Refuses a new type's slug or table that a type among `types` holds, naming that type and a free
 * slug to take instead, or that another schema object holds: tables, indexes and views share one
 * namespace, and a restored or hand-edited database may hold objects of its own.
 */
export async function refuseTakenNames(
  trx: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  types: readonly ContentType[],
  slug: string,
  table: string,
): Promise<void> {
  const bySlug = types.find((type) => type.slug === slug);
  const byTable = bySlug ? undefined : types.find((type) => type.table === table);
  const holder = bySlug ?? byTable;
  if (holder) {
    const isFree = async (candidate: string) =>
      !types.some((type) => type.slug === candidate || type.table === tableFromSlug(candidate)) &&
      (await engine.schema.objectType(schemaOf(trx), tableFromSlug(candidate))) === null;
    const suggestion = await freeTypeSlug(slug, isFree);
    const field = bySlug ? 'slug' : 'table';
    const name = bySlug ? slug : table;
    throw conflict(
      field,
      `The ${field} ${name} is taken by the content type ${holder.title} (${holder.slug})${suggestion ? `; the slug ${suggestion} is free` : ''}`,
      { code: 'taken', type: holder.slug, title: holder.title, ...(suggestion ? { suggestion } : {}) },
    );
  }
  const taken = await engine.schema.objectType(schemaOf(trx), table);
  if (taken) throw conflict('table', `A ${taken} named ${table} already exists`);
}

/** Makes a type's table and registry row in a content-type change's transaction, logged as `by`'s. */
export async function insertContentType(
  trx: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  type: NewContentType,
  by: string | null,
): Promise<ContentTypeRecord> {
  const repository = new ContentTypeRepository(trx);
  const now = timestampNow();
  // The site's locales, taken until commit, so a change of them waits for the table made under them.
  const locales = isLocalized(type.columns) ? await claimLocales(trx) : undefined;
  await createContentTable(schemaOf(trx), engine, type.table, type.columns, locales);
  const record: ContentTypeRecord = {
    id: type.slug,
    slug: type.slug,
    table_name: type.table,
    title: type.title,
    status: 'published',
    type: type.kind ?? 'collection',
    custom: type.custom ? 1 : 0,
    columns: JSON.stringify(type.columns),
    preview_path: type.previewPath,
    position: await repository.nextPosition(),
    flat_meta: type.flatMeta ? 1 : 0,
    created_at: now,
    updated_at: now,
  };
  await repository.insert(record);
  const detail = typeChangeDetail(null, {
    title: type.title,
    kind: type.kind ?? 'collection',
    previewPath: type.previewPath,
    columns: type.columns,
  });
  await recordTypeChange(trx, type.slug, 'create', detail, by);
  await recordTypeChangeInFeed(trx, engine, type.table, by);
  return record;
}

/**
 * Drops a type's table and registry row in a content-type change's transaction, logged as `by`'s.
 * A new type given this table later starts with no history (and no trash) of this one's rows, and
 * none of its pending scheduled changes.
 */
export async function removeContentType(
  trx: Kysely<QuireDatabase>,
  engine: DatabaseEngine,
  type: ContentType,
  by: string | null,
): Promise<void> {
  await dropContentTable(schemaOf(trx), engine, type.table);
  await new ContentTypeRepository(trx).delete(type.id);
  await new RevisionRepository(trx).deleteTable(type.table);
  await new ScheduleRepository(trx).removeTable(type.table);
  await recordTypeChange(trx, type.slug, 'delete', { title: { from: type.title, to: null } }, by);
  await recordTypeChangeInFeed(trx, engine, type.table, by);
}

/**
 * A collection becomes a single type only while it holds at most one row (its row, if any, becomes
 * the type's one row); counted in the change's transaction, so a row created meanwhile is counted.
 */
async function refuseManyRows(trx: Kysely<QuireDatabase>, engine: DatabaseEngine, type: ContentType): Promise<void> {
  const count = await new ContentRepository({ db: trx, engine }).count(type.table, { equals: [] });
  if (count > 1) {
    throw new AppError(
      'single_row_type',
      `${type.title} holds ${count} rows and a single type holds one: delete all but one first`,
      { type: { code: 'holds_rows', title: type.title, count } },
    );
  }
}

/** The relation columns (`table.column`) of types other than `slugs` that point at one of them. */
export function relationsPointingAt(types: readonly ContentType[], slugs: readonly string[]): string[] {
  return types
    .filter((other) => !slugs.includes(other.slug))
    .flatMap((other) =>
      other.columns
        // A relation inside a column's blocks points at its target too.
        .filter((column) =>
          columnsWithin(column).some(
            (inner) => inner.type === 'relation' && inner.target !== undefined && slugs.includes(inner.target),
          ),
        )
        .map((column) => `${other.table}.${column.name}`),
    );
}

/**
 * Works out renames, drops and adds from the new column list; type changes are refused, except
 * among text, textarea and markdown (the text stays) and between markdown and richtext (converted).
 */
export function planTableChange(type: ContentType, columns: readonly ColumnChange[]): TableChange {
  const problems = noProblems();
  const renames: { from: string; to: string }[] = [];
  const kept = new Set<string>();
  const adds: ColumnDescriptor[] = [];
  const final: ColumnDescriptor[] = [];
  for (const { from, ...column } of columns) {
    const sourceName = from ?? column.name;
    const old = type.columnsByName.get(sourceName);
    if (from !== undefined && !old) problems[column.name] = { code: 'renames_unknown', from, table: type.table };
    if (old) {
      if (kept.has(old.name)) problems[column.name] = { code: 'taken_over', column: old.name };
      kept.add(old.name);
      if (!typeChangeAllowed(old.type, column.type)) {
        problems[column.name] = { code: 'type_change', from: old.type, to: column.type };
      }
      if (old.name !== column.name) renames.push({ from: old.name, to: column.name });
    } else {
      adds.push(column);
    }
    final.push(column);
  }
  if (hasProblems(problems)) throw validationError(problems);
  const drops = type.columns.map((column) => column.name).filter((name) => !kept.has(name));
  // Renames run one by one, so a new name must be free now (no swaps, no reuse of a dropped name).
  for (const rename of renames) {
    if (type.columnsByName.has(rename.to)) {
      problems[rename.to] = { code: 'name_in_use', column: rename.to };
    }
  }
  if (hasProblems(problems)) throw validationError(problems);
  return { renames, drops, adds, columns: final, before: type.columns };
}

/** Whether any of `columns` is localized (its table then has locale storage columns). */
function isLocalized(columns: readonly ColumnDescriptor[]): boolean {
  return localizedColumnsOf(columns).length > 0;
}

/** The DDL helpers work on any database, whatever tables Kysely knows of. */
function schemaOf(db: Kysely<QuireDatabase>): Kysely<unknown> {
  return db as unknown as Kysely<unknown>;
}

function conflict(field: string, message: string, problem: FieldProblem = { code: 'taken' }): AppError {
  return new AppError('conflict', message, { [field]: problem });
}

/** Members of a content type the server sets; a write may send them back unchanged (as GET gave them). */
const READ_ONLY_MEMBERS = [
  'content_type_id',
  'table',
  'status',
  'slug',
  'custom',
  'title_column',
  'search_columns',
] as const;

/**
 * Server-set members sent in a write must be what the type has: a body read with GET and sent back
 * is accepted, a changed one is refused by name (`rows` are ignored: rows change through /cms/:type).
 */
function refuseChangedMembers(body: Record<string, unknown>, current: ContentTypeSummary, problems: FieldProblems) {
  for (const member of READ_ONLY_MEMBERS) {
    if (body[member] !== undefined && !isDeepStrictEqual(body[member], current[member])) {
      problems[member] = { code: 'read_only', value: current[member] };
    }
  }
}

/** Whether a column list says exactly what the type has (a body sent back unchanged needs no migration). */
function sameColumns(columns: readonly ColumnChange[], current: readonly ColumnDescriptor[]): boolean {
  return isDeepStrictEqual(
    columns.map((column) => ({ ...column, from: undefined })),
    current.map((column) => ({ ...column, from: undefined })),
  );
}
