import { type Kysely, sql } from 'kysely';
import type { QuireDatabase } from '../schema.js';

/** The media library's table (migration 032). */
export const ASSETS_TABLE = 'quire_assets';

/** An asset as stored. */
export interface AssetRecord {
  id: string;
  path: string;
  file_name: string;
  media_type: string;
  size: number;
  width: number | null;
  height: number | null;
  content_hash: string;
  alt: string;
  caption: string;
  credit: string;
  focal_x: number;
  focal_y: number;
  folder: string | null;
  uploaded_by: string | null;
  uploaded_at: string;
  updated_at: string;
}

/** What an asset change sets. */
export type AssetChanges = Partial<Omit<AssetRecord, 'id' | 'path' | 'uploaded_by' | 'uploaded_at'>>;

/** Orders the library can be listed in. */
export const ASSET_ORDERS = ['uploaded_at', 'updated_at', 'file_name', 'size'] as const;
/** One of `ASSET_ORDERS`. */
export type AssetOrder = (typeof ASSET_ORDERS)[number];

/** Which assets a list shows, and which page of them. */
export interface AssetQuery {
  /** Words looked for in the file name, alt text and caption (case-insensitive, anywhere). */
  search?: string;
  folder?: string;
  /** A media type (`image/png`) or a family (`image/`). */
  type?: string;
  order: AssetOrder;
  desc: boolean;
}

/** A place in a content row that holds a media path: its table, its row and the columns naming it. */
export interface RowHolding {
  table: string;
  id: string;
  columns: string[];
}

/** Where a content table may hold media paths: the table and the columns read as text. */
export interface TableColumns {
  table: string;
  columns: readonly string[];
}

interface AssetTables {
  quire_assets: AssetRecord;
}

/** A text's `%` and `_` (and the escape character) taken literally in a `like` pattern. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/**
 * Reads and writes the media library. The same SQL on every engine: text columns, `lower()` and
 * `like ... escape`, which SQLite and PostgreSQL both read alike.
 */
export class AssetRepository {
  private readonly db: Kysely<AssetTables>;

  constructor(db: Kysely<QuireDatabase>) {
    this.db = db as unknown as Kysely<AssetTables>;
  }

  /** Adds an asset; false when another already has its path (a server adopting the same file). */
  async insert(asset: AssetRecord): Promise<boolean> {
    const result = await this.db
      .insertInto(ASSETS_TABLE)
      .values(asset)
      .onConflict((conflict) => conflict.column('path').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async findById(id: string): Promise<AssetRecord | undefined> {
    return this.db.selectFrom(ASSETS_TABLE).selectAll().where('id', '=', id).executeTakeFirst().then(normalize);
  }

  /** The oldest asset whose bytes have this sha256, other than the one at `exceptPath`. */
  async findByHash(hash: string, exceptPath: string): Promise<AssetRecord | undefined> {
    return this.db
      .selectFrom(ASSETS_TABLE)
      .selectAll()
      .where('content_hash', '=', hash)
      .where('path', '<>', exceptPath)
      .orderBy('uploaded_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst()
      .then(normalize);
  }

  /** The assets at these paths (one query, however many). */
  async findByPaths(paths: readonly string[]): Promise<AssetRecord[]> {
    if (paths.length === 0) return [];
    const found: AssetRecord[] = [];
    for (let start = 0; start < paths.length; start += 500) {
      const rows = await this.db
        .selectFrom(ASSETS_TABLE)
        .selectAll()
        .where('path', 'in', paths.slice(start, start + 500))
        .execute();
      for (const row of rows) found.push(normalize(row) as AssetRecord);
    }
    return found;
  }

  /** Every asset's path. */
  async paths(): Promise<Set<string>> {
    const rows = await this.db.selectFrom(ASSETS_TABLE).select('path').execute();
    return new Set(rows.map((row) => row.path));
  }

  /** How many assets there are in all. */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom(ASSETS_TABLE)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * The assets `query` selects, in its order: a page (`page`) with how many match, or all of them
   * (no `page`) for a caller that filters further.
   */
  async list(
    query: AssetQuery,
    page?: { limit: number; offset: number },
  ): Promise<{ assets: AssetRecord[]; filtered: number }> {
    let select = this.db.selectFrom(ASSETS_TABLE);
    if (query.search) {
      const pattern = `%${likeLiteral(query.search.toLowerCase())}%`;
      select = select.where(
        sql<boolean>`(lower(file_name) like ${pattern} escape '\\' or lower(alt) like ${pattern} escape '\\' or lower(caption) like ${pattern} escape '\\')`,
      );
    }
    if (query.folder !== undefined) select = select.where('folder', '=', query.folder);
    if (query.type !== undefined) {
      select = query.type.endsWith('/')
        ? select.where('media_type', 'like', `${likeLiteral(query.type)}%`)
        : select.where('media_type', '=', query.type);
    }
    const direction = query.desc ? 'desc' : 'asc';
    // File names in any case, alike on every engine (whatever the database's collation).
    const key = query.order === 'file_name' ? sql`lower(file_name)` : sql.ref(query.order);
    const ordered = select.selectAll().orderBy(key, direction).orderBy('id', direction);
    if (!page) {
      const assets = (await ordered.execute()).map((row) => normalize(row) as AssetRecord);
      return { assets, filtered: assets.length };
    }
    const [rows, counted] = await Promise.all([
      ordered.limit(page.limit).offset(page.offset).execute(),
      select.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow(),
    ]);
    return { assets: rows.map((row) => normalize(row) as AssetRecord), filtered: Number(counted.count) };
  }

  /** Changes an asset; false when it is gone. */
  async update(id: string, changes: AssetChanges): Promise<boolean> {
    const result = await this.db.updateTable(ASSETS_TABLE).set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Deletes the assets of these paths (their files were deleted: `quire media prune --yes`). */
  async deleteByPaths(paths: readonly string[]): Promise<void> {
    for (let start = 0; start < paths.length; start += 500) {
      await this.db
        .deleteFrom(ASSETS_TABLE)
        .where('path', 'in', paths.slice(start, start + 500))
        .execute();
    }
  }

  /** Deletes an asset; false when it was gone already. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom(ASSETS_TABLE).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /**
   * The content rows that name `path` in any of the given columns (read as text, so JSON and
   * Markdown count as well as an image column's value), with the columns that do.
   */
  async rowsNaming(path: string, tables: readonly TableColumns[]): Promise<RowHolding[]> {
    const pattern = `%${likeLiteral(path)}%`;
    const holding: RowHolding[] = [];
    for (const { table, columns } of tables) {
      if (columns.length === 0) continue;
      const mentions = columns.map((column) => sql`cast(${sql.ref(column)} as text) like ${pattern} escape '\\'`);
      const { rows } = await sql<Record<string, unknown>>`select ${sql.join(
        ['id', ...columns].map((column) => sql.ref(column)),
      )} from ${sql.table(table)} where ${sql.join(mentions, sql` or `)} order by id`.execute(this.db);
      for (const row of rows) {
        const named = columns.filter((column) => row[column] !== null && String(row[column]).includes(path));
        holding.push({ table, id: String(row.id), columns: named });
      }
    }
    return holding;
  }
}

/** Numbers as numbers on every engine (a driver may hand them back as text). */
function normalize(row: AssetRecord | undefined): AssetRecord | undefined {
  if (!row) return row;
  return {
    ...row,
    size: Number(row.size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    focal_x: Number(row.focal_x),
    focal_y: Number(row.focal_y),
  };
}
