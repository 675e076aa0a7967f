import { timestampNow } from '../../common/datetime-syntax.js';
import { describeProblem } from '../../common/field-problems.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import { uniqueSlug } from '../../common/slug-rules.js';
import { recordImportedInFeed } from '../changes/change-feed-service.js';
import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { checkRelationTargets } from '../content/relations.js';
import { isValidRowId, newRowId } from '../content/row-ids.js';
import { parseRowInput } from '../content/row-input.js';
import { assignSlugs } from '../content/slug-columns.js';
import { localizedStored, newStoredRow } from '../content/stored-row.js';
import type { BulkImportTimings, BulkWriter } from '../db/bulk-writer.js';
import type { QuireDb } from '../db/database.js';
import { searchTextColumnsOf } from '../db/queries/search-text-columns.js';
import { ContentRepository, type StoredRow } from '../db/repositories/content-repository.js';
import { AppError } from '../errors/app-error.js';
import { fieldFor } from '../fields/field-registry.js';
import { localeStorageColumns, valueColumnIn } from '../locales/localized-values.js';
import { recordImported } from '../revisions/revision-record.js';
import type { ImportFormat, ImportRecord } from './import-formats.js';
import { importLocale, localizedImportFields } from './localized-import.js';

/** Bad rows named in the report; the rest are only counted. */
export const MAX_REPORTED_PROBLEMS = 20;
/** How often (in rows) progress is reported. */
const PROGRESS_EVERY = 2000;
/** How often (in rows) the import lets the event loop run (a turn costs a few microseconds). */
const YIELD_EVERY = 100;

/** A row the import refused, by the line it starts on. */
export interface ImportProblem {
  line: number;
  message: string;
}

/** What an import did. */
export interface ImportResult {
  /** Rows written (0 when any row was refused: an import is all or nothing). */
  imported: number;
  /** Rows refused. */
  refused: number;
  /** The first refusals, in file order. */
  problems: ImportProblem[];
  /** Seconds of the import spent building the table's indexes after its rows (into an empty table), else 0. */
  indexSeconds: number;
}

/** How to import. */
export interface ImportOptions {
  /** Name recorded in created_by/updated_by. */
  editorName: string | null;
  /** The site's locales, which localized columns are imported in (default: English alone). */
  locales?: LocalesDocument;
  /** The file's format: a CSV header names a locale's value as `title@de` (see localized-import.ts). */
  format?: ImportFormat;
  /** Called every few thousand rows and at the end. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Imports rows into a content type through the same rules as `POST /api/cms/:type`: every field
 * parsed and validated by its column's field type, slugs generated from their parent (or checked
 * when given), relations checked, meta and system fields set as `create` sets them. An `id` field
 * is kept when valid and free. The import is one transaction: if any row is refused, nothing is
 * written and the report names the refused rows by line.
 */
export async function importRows(
  database: QuireDb,
  registry: ContentTypeRegistry,
  type: ContentType,
  records: readonly ImportRecord[],
  options: ImportOptions,
): Promise<ImportResult> {
  const problems: ImportProblem[] = [];
  let refused = 0;
  const document = options.locales ?? DEFAULT_LOCALES;
  const inLocales = importLocale(type, document);
  const columns = ['id', ...type.columns.map((column) => column.name), ...searchTextColumnsOf(type.columns)];
  columns.push('meta', 'created_at', 'updated_at');
  columns.push('created_by', 'updated_by');
  columns.push(...localeStorageColumns(document, type.columns).map((column) => column.name));
  const hasRelations = type.columns.some((column) => fieldFor(column.type).rowPointers !== undefined);
  const now = timestampNow();
  const timings: BulkImportTimings = { indexMs: 0 };

  const written: StoredRow[] = [];
  const committed = await bulkImport(database, type, document, columns, timings, async (writer) => {
    const relationReader = new ImportRelationReader({ database, table: type.table, writer });
    const slugs = {
      isTaken: (column: string, slug: string) => writer.slugTaken(column, slug),
      firstFree: (column: string, base: string) => {
        if (!writer.slugTaken(column, base)) return base;
        const taken = writer.valuesStartingWith(column, base);
        return uniqueSlug(base, (candidate) => taken.has(candidate));
      },
    };
    for (const [index, record] of records.entries()) {
      try {
        const { id: givenId, ...fields } = record.fields;
        const id = rowIdOf(givenId, (candidate) => writer.rowExists(candidate));
        const given = inLocales ? localizedImportFields(type, document, fields, options.format ?? 'json') : fields;
        const input = parseRowInput(type, given, 'create', undefined, inLocales);
        const values = await assignSlugs(
          type,
          input,
          null,
          slugs,
          inLocales && { document, localized: input.localized },
        );
        if (hasRelations) await checkRelationTargets(type, values, registry, relationReader);
        // Rows keep being written after a refusal (the transaction is rolled back at the end), so
        // the lookups of later rows stay exact and every refusal is reported.
        const stored = newStoredRow(type, id, values, input, now, options.editorName);
        Object.assign(stored, localizedStored(type, document, null, stored, input.localized));
        writer.insert(stored);
        written.push(stored);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        refused++;
        if (problems.length < MAX_REPORTED_PROBLEMS) problems.push({ line: record.line, message: describe(error) });
      }
      if ((index + 1) % PROGRESS_EVERY === 0) options.onProgress?.(index + 1, records.length);
      // Lets the database's answers in: PostgreSQL's import writes batches while rows are validated.
      if ((index + 1) % YIELD_EVERY === 0) await new Promise((next) => setImmediate(next));
    }
    options.onProgress?.(records.length, records.length);
    return refused === 0;
  });
  if (committed) {
    // After the import's own commit: each engine's bulk writer owns that transaction, its own way,
    // so the rows' revisions and their changes in the feed follow in one transaction of their own,
    // all or none. A reader of the feed finds the rows there once it sees their changes.
    const recorded = { by: options.editorName, at: now };
    await database.db.transaction().execute(async (trx) => {
      await recordImported(trx, type, written, recorded);
      const ids = written.map((row) => String(row.id));
      await recordImportedInFeed(trx, database.engine, type.table, ids, recorded);
    });
  }
  return { imported: refused === 0 ? records.length : 0, refused, problems, indexSeconds: timings.indexMs / 1000 };
}

/**
 * Finds relation targets for the import: in the type's own table through the writer, which sees
 * the rows this import wrote before (a menu item's parent a few lines up) on either engine, even
 * where they are not inserted yet (PostgreSQL's import inserts them once all passed).
 */
class ImportRelationReader extends ContentRepository {
  private readonly table: string;
  private readonly writer: BulkWriter;

  constructor(options: { database: QuireDb; table: string; writer: BulkWriter }) {
    const { database } = options;
    super({ db: database.db, engine: database.engine, runner: database.runner });
    this.table = options.table;
    this.writer = options.writer;
  }

  override async findById(table: string, id: string): Promise<StoredRow | undefined> {
    if (table === this.table) return this.writer.rowExists(id) ? { id } : undefined;
    return super.findById(table, id);
  }
}

/**
 * One transaction of bulk writes, the engine's way (`QuireDb.bulkImport`), looking up the values of
 * each slug column, and of each locale's stored column of a localized one (unique per locale).
 */
function bulkImport(
  database: QuireDb,
  type: ContentType,
  document: LocalesDocument,
  columns: readonly string[],
  timings: BulkImportTimings,
  work: (writer: BulkWriter) => Promise<boolean>,
): Promise<boolean> {
  const slugs = type.columns
    .filter((column) => column.type === 'slug')
    .flatMap((column) =>
      column.localized === true
        ? document.locales.map(({ code }) => valueColumnIn(document, column, code))
        : [column.name],
    );
  return database.bulkImport(type.table, columns, slugs, work, timings);
}

/** The row's id: the file's when given (valid and free), else a new one. */
function rowIdOf(given: unknown, exists: (id: string) => boolean): string {
  if (given === undefined || given === null || given === '') return newRowId();
  const id = typeof given === 'number' ? String(given) : given;
  if (typeof id !== 'string' || !isValidRowId(id)) {
    throw new AppError('validation_failed', `id ${describeProblem({ code: 'not_a_row_id' })}`);
  }
  if (exists(id)) throw new AppError('conflict', `id ${JSON.stringify(id)} is already taken`);
  return id;
}

function describe(error: AppError): string {
  if (!error.fields) return error.message;
  return Object.entries(error.fields)
    .map(([field, problem]) => `${field} ${problem}`)
    .join('; ');
}
