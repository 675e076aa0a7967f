import { type Generated, type Kysely, sql } from 'kysely';
import type { RevisionAction, RevisionOrigin } from '../../../common/revision-contract.js';
import { compiledWritesOf } from '../queries/compiled-writes.js';
import { sendLater } from '../queries/later-statements.js';
import type { QuireDatabase } from '../schema.js';

/** Every row revision: one per create, update, delete and restore of a content row. */
export const REVISIONS_TABLE = 'quire_revisions';
/** Every content-type change: what changed, who, when. */
export const TYPE_CHANGES_TABLE = 'quire_type_changes';
/** The two tables, in the order a copy loads them. */
export const REVISION_TABLES = [REVISIONS_TABLE, TYPE_CHANGES_TABLE] as const;
/** A row's revisions, newest first, and the trash's "newest revision of a row" probes. */
export const REVISION_ROW_INDEX = 'quire_revisions:row';

/** A stored revision. */
export interface RevisionRow {
  id: number;
  table_name: string;
  row_id: string;
  action: RevisionAction;
  /** JSON of the stored row after the change (before it, for a delete). */
  snapshot: string;
  /** JSON array of field names. */
  changed: string;
  changed_by: string | null;
  changed_at: string;
  /** Why it was written (revisions older than the column read as `edit`). */
  origin: RevisionOrigin;
  /** A restore's: the `changed_at` of the revision it put back. */
  restored_from: string | null;
}

/** A stored content-type change. */
export interface TypeChangeRow {
  id: number;
  type_slug: string;
  action: 'create' | 'update' | 'delete';
  /** JSON of what changed. */
  detail: string;
  changed_by: string | null;
  changed_at: string;
}

/** Ids are numbered by the database. */
type Numbered<T> = Omit<T, 'id'> & { id: Generated<number> };

interface RevisionTables {
  quire_revisions: Numbered<RevisionRow>;
  quire_type_changes: Numbered<TypeChangeRow>;
}

/** The columns a revision insert names, in the order of its parameters. */
const REVISION_COLUMNS = [
  'table_name',
  'row_id',
  'action',
  'snapshot',
  'changed',
  'changed_by',
  'changed_at',
  'origin',
  'restored_from',
] as const satisfies readonly (keyof Omit<RevisionRow, 'id'>)[];

/** Revisions one insert of `insertMany` names: well under either engine's limit on parameters. */
const MANY_PER_STATEMENT = 500;

/** A page: `limit` rows after skipping `offset`. */
export interface Page {
  limit: number;
  offset: number;
}

/**
 * All SQL of revisions, the trash and the content-type change log, the same on both engines. Ids
 * come back as numbers (PostgreSQL's bigint arrives as text). Times are server timestamps, so
 * `changed_at < before` compares as text.
 */
export class RevisionRepository {
  private readonly db: Kysely<RevisionTables>;

  constructor(db: Kysely<QuireDatabase> | Kysely<unknown>) {
    this.db = db as unknown as Kysely<RevisionTables>;
  }

  /** Records one revision (every row write does, inside its transaction). */
  async insert(revision: Omit<RevisionRow, 'id'>): Promise<void> {
    const parameters = REVISION_COLUMNS.map((column) => revision[column]);
    // The statement is the same for every revision: compiled once per dialect (compiled-writes.ts).
    const query = compiledWritesOf(this.db as unknown as Kysely<unknown>).statement('revision', parameters, () =>
      this.db
        .insertInto(REVISIONS_TABLE)
        .values(
          Object.fromEntries(REVISION_COLUMNS.map((column, i) => [column, parameters[i]])) as Omit<RevisionRow, 'id'>,
        ),
    );
    await this.db.executeQuery(sendLater(query));
  }

  /** Records many revisions in a few statements (rows brought in by an import). */
  async insertMany(revisions: readonly Omit<RevisionRow, 'id'>[]): Promise<void> {
    for (let start = 0; start < revisions.length; start += MANY_PER_STATEMENT) {
      await this.db
        .insertInto(REVISIONS_TABLE)
        .values(revisions.slice(start, start + MANY_PER_STATEMENT))
        .execute();
    }
  }

  /** Removes a row's revisions beyond its newest `keep` (`keep` >= 1: the newest always stays). */
  async keepNewest(table: string, rowId: string, keep: number): Promise<void> {
    const kept = this.db
      .selectFrom(REVISIONS_TABLE)
      .select('id')
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .orderBy('id', 'desc')
      .limit(Math.max(1, keep));
    await this.db
      .deleteFrom(REVISIONS_TABLE)
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .where('id', 'not in', kept)
      .execute();
  }

  /** A row's revisions, newest first. */
  async listForRow(table: string, rowId: string, page: Page): Promise<RevisionRow[]> {
    const rows = await this.db
      .selectFrom(REVISIONS_TABLE)
      .selectAll()
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(numbered);
  }

  async countForRow(table: string, rowId: string): Promise<number> {
    const row = await this.db
      .selectFrom(REVISIONS_TABLE)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** One revision of a row, or undefined. */
  async find(table: string, rowId: string, id: number): Promise<RevisionRow | undefined> {
    const row = await this.db
      .selectFrom(REVISIONS_TABLE)
      .selectAll()
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && numbered(row);
  }

  /** A row's newest revision, or undefined. */
  async newest(table: string, rowId: string): Promise<RevisionRow | undefined> {
    const row = await this.db
      .selectFrom(REVISIONS_TABLE)
      .selectAll()
      .where('table_name', '=', table)
      .where('row_id', '=', rowId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && numbered(row);
  }

  /** The newest revision of each row of `table` deleted at or after `since` and not brought back, newest first. */
  async trash(table: string, since: string, page: Page): Promise<RevisionRow[]> {
    const rows = await this.trashQuery(table, since)
      .selectAll('r')
      .orderBy('r.id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(numbered);
  }

  async trashCount(table: string, since: string): Promise<number> {
    const row = await this.trashQuery(table, since)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  private trashQuery(table: string, since: string) {
    return this.db
      .selectFrom(`${REVISIONS_TABLE} as r`)
      .where('r.table_name', '=', table)
      .where('r.action', '=', 'delete')
      .where('r.changed_at', '>=', since)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom(`${REVISIONS_TABLE} as n`)
              .select('n.id')
              .whereRef('n.table_name', '=', 'r.table_name')
              .whereRef('n.row_id', '=', 'r.row_id')
              .whereRef('n.id', '>', 'r.id'),
          ),
        ),
      );
  }

  /**
   * Purges the trash: every revision of each row whose newest revision is a delete made before
   * `before`. Rows that exist have a newest revision that is not a delete, so theirs all stay.
   */
  async purgeTrash(before: string): Promise<number> {
    const result = await sql`delete from ${sql.table(REVISIONS_TABLE)} where exists (
        select 1 from ${sql.table(REVISIONS_TABLE)} d
        where d.table_name = ${sql.table(REVISIONS_TABLE)}.table_name
          and d.row_id = ${sql.table(REVISIONS_TABLE)}.row_id
          and d.action = 'delete' and d.changed_at < ${before}
          and not exists (
            select 1 from ${sql.table(REVISIONS_TABLE)} n
            where n.table_name = d.table_name and n.row_id = d.row_id and n.id > d.id))`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** Removes every row's revisions beyond its newest `keep` (`keep` >= 1). */
  async purgeBeyond(keep: number): Promise<number> {
    const result = await sql`delete from ${sql.table(REVISIONS_TABLE)} where id in (
        select id from (
          select id, row_number() over (partition by table_name, row_id order by id desc) as place
          from ${sql.table(REVISIONS_TABLE)}) ranked
        where place > ${Math.max(1, keep)})`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /** Forgets a content table's revisions (its type was deleted: a new type of that name starts afresh). */
  async deleteTable(table: string): Promise<void> {
    await this.db.deleteFrom(REVISIONS_TABLE).where('table_name', '=', table).execute();
  }

  async insertTypeChange(change: Omit<TypeChangeRow, 'id'>): Promise<void> {
    await this.db.insertInto(TYPE_CHANGES_TABLE).values(change).execute();
  }

  /** Content-type changes, newest first: of one type, or of all (`slug` null). */
  async listTypeChanges(slug: string | null, page: Page): Promise<{ rows: TypeChangeRow[]; total: number }> {
    let rows = this.db.selectFrom(TYPE_CHANGES_TABLE);
    if (slug !== null) rows = rows.where('type_slug', '=', slug);
    const found = await rows.selectAll().orderBy('id', 'desc').limit(page.limit).offset(page.offset).execute();
    const count = await rows.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return { rows: found.map(numbered), total: Number(count.n) };
  }
}

/**
 * After a copy into PostgreSQL inserted revisions with their ids: the identity columns continue
 * after the largest id, so the next revision does not collide with a copied one.
 */
export async function continueRevisionIds(db: Kysely<QuireDatabase> | Kysely<unknown>): Promise<void> {
  for (const table of REVISION_TABLES) {
    await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce(max(id), 0) + 1, false)
      from ${sql.table(table)}`.execute(db);
  }
}

/** A row as read, with its id as a number. */
function numbered<T extends { id: number | string }>(row: T): Omit<T, 'id'> & { id: number } {
  return { ...row, id: Number(row.id) };
}
