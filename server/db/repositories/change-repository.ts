import type { Generated, Kysely } from 'kysely';
import type { DatabaseEngine } from '../engine.js';
import { sendLater } from '../queries/later-statements.js';
import type { QuireDatabase } from '../schema.js';

/** The change feed's table (migration 030). */
export const CHANGES_TABLE = 'quire_changes';
/** One row: the newest position the retention purge has removed. */
export const CHANGES_PURGED_TABLE = 'quire_changes_purged';

/** A change's place in the feed: its transaction's number (0 where one writer commits) and its id. */
export interface ChangePosition {
  tx: number;
  id: number;
}

/** Changes one insert of `append` names: well under either engine's limit on parameters. */
const APPEND_PER_STATEMENT = 500;

/** Before every change: where `since=0` reads from. */
export const START: ChangePosition = { tx: 0, id: 0 };

/** A stored change. */
export interface ChangeRow extends ChangePosition {
  /** Server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`). */
  at: string;
  table_name: string;
  row_id: string;
  action: string;
  changed_by: string | null;
  /** JSON array text, or null. */
  locales: string | null;
}

/** A change to append (its position is the database's). */
export type NewChange = Omit<ChangeRow, 'tx' | 'id'>;

interface ChangeTables {
  quire_changes: Omit<ChangeRow, 'tx' | 'id'> & { tx: Generated<number>; id: Generated<number> };
  quire_changes_purged: ChangePosition;
}

/** Whether `a` comes before `b` in the feed. */
export function before(a: ChangePosition, b: ChangePosition): boolean {
  return a.tx < b.tx || (a.tx === b.tx && a.id < b.id);
}

function positionOf(row: { tx: unknown; id: unknown }): ChangePosition {
  return { tx: Number(row.tx), id: Number(row.id) };
}

/**
 * All SQL of the change feed, the same on both engines: changes are read in the order of (`tx`,
 * `id`), and only those below the engine's settled bound (`ChangeOrder`), so a read never hands
 * out a change that one committing later could precede.
 */
export class ChangeRepository {
  private readonly db: Kysely<ChangeTables>;
  private readonly engine: DatabaseEngine;

  constructor(db: Kysely<QuireDatabase> | Kysely<unknown>, engine: DatabaseEngine) {
    this.db = db as unknown as Kysely<ChangeTables>;
    this.engine = engine;
  }

  /**
   * Appends changes in the write's transaction; their positions, in the order given. An import's
   * many changes go in statements of APPEND_PER_STATEMENT, under either engine's limit on parameters.
   */
  async append(changes: readonly NewChange[]): Promise<ChangePosition[]> {
    const positions: ChangePosition[] = [];
    for (let start = 0; start < changes.length; start += APPEND_PER_STATEMENT) {
      const rows = await this.db
        .insertInto(CHANGES_TABLE)
        .values(changes.slice(start, start + APPEND_PER_STATEMENT))
        .returning(['tx', 'id'])
        .execute();
      // Ids are numbered in the order of the values; the order rows come back in is not promised.
      positions.push(...rows.map(positionOf).sort((a, b) => a.id - b.id));
    }
    return positions;
  }

  /**
   * Appends changes in the write's transaction without reading their positions back: sent with the
   * write's next awaited statement (later-statements.ts), so a write whose cursors nobody reads
   * pays no round trip for its feed entries.
   */
  async appendLater(changes: readonly NewChange[]): Promise<void> {
    for (let start = 0; start < changes.length; start += APPEND_PER_STATEMENT) {
      const query = this.db
        .insertInto(CHANGES_TABLE)
        .values(changes.slice(start, start + APPEND_PER_STATEMENT))
        .compile();
      await this.db.executeQuery(sendLater(query));
    }
  }

  /**
   * Up to `limit` settled changes after `after`, in feed order; of `tables` only, when given. The
   * changes of `after`'s transaction past its id, and those of later transactions, are read as two
   * ranges of the (`tx`, `id`) index: SQLite serves a row-value comparison `(tx, id) > (?, ?)` by
   * scanning from `tx`, which reads every earlier change of a transaction (on SQLite, all of them).
   */
  async read(after: ChangePosition, tables: readonly string[] | null, limit: number): Promise<ChangeRow[]> {
    if (tables !== null && tables.length === 0) return [];
    const bound = await this.engine.changeOrder.settledBelow(this.db as unknown as Kysely<unknown>);
    const range = (sameTransaction: boolean) => {
      let query = this.db.selectFrom(CHANGES_TABLE).selectAll();
      query = sameTransaction
        ? query.where('tx', '=', after.tx).where('id', '>', after.id)
        : query.where('tx', '>', after.tx);
      if (bound !== null) query = query.where('tx', '<', bound);
      if (tables !== null) query = query.where('table_name', 'in', [...tables]);
      return query.orderBy('tx').orderBy('id').limit(limit);
    };
    const rows = await this.db
      .selectFrom(range(true).as('same_transaction'))
      .selectAll()
      .unionAll(this.db.selectFrom(range(false).as('later_transactions')).selectAll())
      .orderBy('tx')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ ...row, ...positionOf(row) }));
  }

  /**
   * The newest settled change's position, or null when none is kept; with `settledOnly` false, the
   * newest recorded one, which no cursor given out can be past.
   */
  async newest(settledOnly = true): Promise<ChangePosition | null> {
    const row = await (settledOnly ? await this.settled() : this.db.selectFrom(CHANGES_TABLE))
      .select(['tx', 'id'])
      .orderBy('tx', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row ? positionOf(row) : null;
  }

  /** The newest position the purge has removed (START when none). */
  async purged(): Promise<ChangePosition> {
    const row = await this.db.selectFrom(CHANGES_PURGED_TABLE).select(['tx', 'id']).executeTakeFirst();
    return row ? positionOf(row) : START;
  }

  /**
   * Removes the settled changes before the first one recorded at or after `keepSince`, and moves
   * the purge mark to the last of them; how many went. Run it in a transaction: the mark and the
   * removal commit together.
   */
  async purgeBefore(keepSince: string): Promise<number> {
    const firstKept = await this.db
      .selectFrom(CHANGES_TABLE)
      .select(['tx', 'id'])
      .where('at', '>=', keepSince)
      .orderBy('tx')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    let last = (await this.settled()).select(['tx', 'id']);
    if (firstKept) {
      const kept = positionOf(firstKept);
      last = last.where(({ eb, refTuple, tuple }) => eb(refTuple('tx', 'id'), '<', tuple(kept.tx, kept.id)));
    }
    const found = await last.orderBy('tx', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
    if (!found) return 0;
    const mark = positionOf(found);
    const removed = await this.db
      .deleteFrom(CHANGES_TABLE)
      .where(({ eb, refTuple, tuple }) => eb(refTuple('tx', 'id'), '<=', tuple(mark.tx, mark.id)))
      .executeTakeFirst();
    await this.db
      .updateTable(CHANGES_PURGED_TABLE)
      .set(mark)
      .where(({ eb, refTuple, tuple }) => eb(refTuple('tx', 'id'), '<', tuple(mark.tx, mark.id)))
      .execute();
    return Number(removed.numDeletedRows ?? 0);
  }

  /** The changes a read may hand out: all where one writer commits, else those below the settled bound. */
  private async settled() {
    const bound = await this.engine.changeOrder.settledBelow(this.db as unknown as Kysely<unknown>);
    const changes = this.db.selectFrom(CHANGES_TABLE);
    return bound === null ? changes : changes.where('tx', '<', bound);
  }
}
