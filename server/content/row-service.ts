import type { Kysely } from 'kysely';
import type { ColumnValue, ContentRow, SeoMeta } from '../contract/api-contract.js';
import { ContentRepository, type StoredRow } from '../db/content-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { isUniqueViolation } from '../db/sqlite-dialect.js';
import { AppError, validationError } from '../errors/app-error.js';
import { timestampNow } from '../fields/datetime-format.js';
import type { ContentType } from './content-type.js';
import type { ListOptions } from './list-query.js';
import type { PhaseTimer } from './phase-timer.js';
import { formatRow } from './row-format.js';
import { isValidRowId, newRowId } from './row-ids.js';
import { parseRowInput, type RowInput } from './row-input.js';
import { applyMetaPatch, parseStoredMeta, resolvePageMeta } from './seo-meta.js';
import { slugify, uniqueSlug } from './slugs.js';

/** A page of rows with the counts the list endpoint reports. */
export interface RowList {
  rows: ContentRow[];
  total: number;
  filtered: number;
}

/** One row with its page's resolved SEO meta. */
export interface RowWithPageMeta {
  row: ContentRow;
  pageMeta: SeoMeta;
  total: number;
}

/**
 * Reads and writes content rows: validation from the column descriptors, slug generation, meta,
 * system fields. Each write is one transaction, so a failed write changes nothing.
 */
export class RowService {
  constructor(
    private readonly db: Kysely<QuireDatabase>,
    private readonly editorName: string | null,
  ) {}

  /** A page of rows plus `total` (all rows) and `filtered` (rows matching the selection). */
  async list(type: ContentType, options: ListOptions, timer?: PhaseTimer): Promise<RowList> {
    const repository = new ContentRepository(this.db);
    timer?.lap('filter');
    const stored = await repository.list(type.table, options.selection, options.page);
    timer?.lap('data');
    const total = await repository.count(type.table, { equals: [] });
    const unfiltered = options.selection.equals.length === 0 && !options.selection.search;
    const filtered = unfiltered ? total : await repository.count(type.table, options.selection);
    timer?.lap('count');
    const rows = stored.map((row) => formatRow(type, row));
    timer?.lap('format');
    return { rows, total, filtered };
  }

  /** One row by id with its page meta, or a 404. */
  async get(type: ContentType, id: string, timer?: PhaseTimer): Promise<RowWithPageMeta> {
    const repository = new ContentRepository(this.db);
    timer?.lap('filter');
    const stored = await repository.findById(type.table, id);
    timer?.lap('data');
    if (!stored) throw notFound(type, id);
    const total = await repository.count(type.table, { equals: [] });
    timer?.lap('count');
    const row = formatRow(type, stored);
    const pageMeta = resolvePageMeta(row as StoredRow, row.meta);
    timer?.lap('format');
    return { row, pageMeta, total };
  }

  /** Creates a row from a write body, with the given id or a generated one. */
  async create(type: ContentType, body: unknown, id?: string): Promise<ContentRow> {
    if (id !== undefined && !isValidRowId(id)) {
      throw validationError({ id: 'must be 1 to 128 letters, digits or . _ ~ - characters' });
    }
    const input = parseRowInput(type, body, 'create');
    return this.write(async (repository) => {
      const rowId = id ?? newRowId();
      if (id !== undefined && (await repository.findById(type.table, id))) {
        throw new AppError('conflict', `A ${type.table} row with id ${JSON.stringify(id)} already exists`, {
          id: 'is already taken',
        });
      }
      const now = timestampNow();
      const values = await this.withSlugs(repository, type, input, null, rowId);
      const meta = input.meta === undefined ? null : applyMetaPatch(null, input.meta);
      const stored: StoredRow = {
        id: rowId,
        ...Object.fromEntries(type.columns.map((column) => [column.name, toStored(values.get(column.name))])),
        meta: meta === null ? null : JSON.stringify(meta),
        created_at: now,
        updated_at: now,
        created_by: this.editorName,
        updated_by: this.editorName,
      };
      await repository.insert(type.table, stored);
      return formatRow(type, stored);
    });
  }

  /** Changes the fields a write body names; the others keep their values. */
  async update(type: ContentType, id: string, body: unknown): Promise<ContentRow> {
    const input = parseRowInput(type, body, 'update');
    return this.write(async (repository) => {
      const current = await repository.findById(type.table, id);
      if (!current) throw notFound(type, id);
      const values = await this.withSlugs(repository, type, input, current, id);
      const changes: StoredRow = {};
      for (const [name, value] of values) changes[name] = toStored(value);
      if (input.meta !== undefined) {
        const meta = applyMetaPatch(parseStoredMeta(current.meta), input.meta);
        changes.meta = meta === null ? null : JSON.stringify(meta);
      }
      changes.updated_at = timestampNow();
      changes.updated_by = this.editorName;
      await repository.update(type.table, id, changes);
      return formatRow(type, { ...current, ...changes });
    });
  }

  /** Deletes a row and returns what it held. */
  async delete(type: ContentType, id: string): Promise<ContentRow> {
    return this.write(async (repository) => {
      const current = await repository.findById(type.table, id);
      if (!current) throw notFound(type, id);
      await repository.delete(type.table, id);
      return formatRow(type, current);
    });
  }

  /**
   * Fills in slug columns: a given slug is kept (normalised by its field) and must be free; an
   * absent one is generated from its parent on create, and on update when explicitly cleared.
   */
  private async withSlugs(
    repository: ContentRepository,
    type: ContentType,
    input: RowInput,
    current: StoredRow | null,
    id: string,
  ): Promise<Map<string, ColumnValue>> {
    const values = new Map(input.values);
    const problems: Record<string, string> = {};
    for (const column of type.columns) {
      if (column.type !== 'slug') continue;
      const given = values.get(column.name);
      if (typeof given === 'string') {
        if (await repository.isTaken(type.table, column.name, given, id)) {
          throw new AppError('conflict', `The ${column.name} ${JSON.stringify(given)} is already used by another row`, {
            [column.name]: 'is already taken',
          });
        }
        continue;
      }
      if (current !== null && !values.has(column.name)) continue;
      const parent = column.parent ?? '';
      const parentValue = values.has(parent) ? values.get(parent) : current?.[parent];
      const base = typeof parentValue === 'string' ? slugify(parentValue) : '';
      if (base === '') {
        if (column.required)
          problems[column.name] = `is required; give one or a ${column.parent} with letters or digits`;
        else values.set(column.name, null);
        continue;
      }
      const taken = await repository.valuesStartingWith(type.table, column.name, base, id);
      values.set(
        column.name,
        uniqueSlug(base, (candidate) => taken.has(candidate)),
      );
    }
    if (Object.keys(problems).length > 0) throw validationError(problems);
    return values;
  }

  /** Runs a write in one transaction; a unique-constraint race becomes a 409, not a 500. */
  private async write<T>(work: (repository: ContentRepository) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute((trx) => work(new ContentRepository(trx)));
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', 'The row conflicts with an existing row');
      throw error;
    }
  }
}

function toStored(value: ColumnValue | undefined): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return JSON.stringify(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

function notFound(type: ContentType, id: string): AppError {
  return new AppError('not_found', `There is no ${type.table} row with id ${JSON.stringify(id)}`);
}
