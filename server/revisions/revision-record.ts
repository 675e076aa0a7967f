import type { Kysely } from 'kysely';
import { timestampNow } from '../../common/datetime-syntax.js';
import type { RevisionAction } from '../../common/revision-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { RowScope, WriteLog, WriteObserver } from '../content/content-writes.js';
import { formatRow } from '../content/row-format.js';
import { withoutSearchTexts } from '../db/queries/search-text-columns.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { RevisionRepository } from '../db/repositories/revision-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';

/** Days a deleted row stays in the trash by default. */
export const DEFAULT_TRASH_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** How revisions are kept. */
export interface RevisionOptions {
  /** Revisions kept per row (the newest ones); null keeps every one. */
  keepRevisions?: number | null;
  /** Days a deleted row can be restored before it is purged. */
  trashDays?: number;
  /** The clock revisions and the trash go by (tests move it). */
  now?: () => Date;
}

/**
 * How revisions are kept, defaults filled in: the clock, how many revisions a row keeps (null:
 * all), and how long the trash holds a deleted row. Recording and RevisionService share one.
 */
export class RevisionRetention {
  readonly keepRevisions: number | null;
  readonly trashDays: number;
  readonly now: () => Date;

  constructor(options: RevisionOptions = {}) {
    this.keepRevisions = options.keepRevisions ?? null;
    this.trashDays = options.trashDays ?? DEFAULT_TRASH_DAYS;
    this.now = options.now ?? (() => new Date());
  }

  /** The oldest delete the trash still holds (rows deleted since can be restored, so their ids stay theirs). */
  trashSince(): string {
    return timestampNow(new Date(this.now().getTime() - this.trashDays * DAY_MS));
  }

  /** When a row deleted at `deletedAt` (a server timestamp) leaves the trash. */
  purgeAt(deletedAt: string): string {
    return timestampNow(new Date(timestampMs(deletedAt) + this.trashDays * DAY_MS));
  }
}

/** Milliseconds since the epoch of a server timestamp (`YYYY-MM-DD HH:MM:SS.ffffff`, UTC). */
function timestampMs(timestamp: string): number {
  return Date.parse(`${timestamp.slice(0, 23).replace(' ', 'T')}Z`);
}

/** The ContentWrites observer that records a revision of every row a write changed (see recordRevisions). */
export function revisionRecorder(retention: RevisionRetention): WriteObserver {
  return (trx, scope, log) => recordRevisions(trx, scope, log, retention);
}

/**
 * Records a revision for each row a write changed, in the write's transaction (a ContentWrites
 * observer): a write that fails records nothing, and a revision is never kept for a write that
 * was undone. A row past `keepRevisions` loses its oldest ones here, so it never holds more.
 */
export async function recordRevisions(
  trx: Kysely<QuireDatabase>,
  scope: RowScope,
  log: WriteLog,
  retention: RevisionRetention,
): Promise<void> {
  const repository = new RevisionRepository(trx);
  const at = timestampNow(retention.now());
  for (const { before, after, idChosen, locales } of log.changes) {
    const row = after ?? before;
    if (!row) continue;
    const action: RevisionAction =
      after === null ? 'delete' : scope.restore ? 'restore' : before === null ? 'create' : 'update';
    const rowId = String(row.id);
    if (action === 'create' && idChosen) {
      await refuseTrashedId(repository, scope.type.table, rowId, retention.trashSince());
    }
    await repository.insert({
      table_name: scope.type.table,
      row_id: rowId,
      action,
      snapshot: JSON.stringify(withoutSearchTexts(row)),
      changed: JSON.stringify(withLocales(changedFields(scope.type, before, after), locales)),
      changed_by: scope.by ?? null,
      changed_at: at,
      origin: scope.origin ?? 'edit',
      restored_from: scope.restoredFrom ?? null,
    });
    if (retention.keepRevisions !== null) await repository.keepNewest(scope.type.table, rowId, retention.keepRevisions);
  }
}

/** Joins a localized field's name and a locale its value changed in, as a revision records them: `title@de`. */
export const LOCALE_MARK = '@';

/**
 * The changed fields with, for each localized field whose value changed in a locale, `field@locale`
 * (see RowChange.locales) after it; a localized field changed only in a locale other than the
 * default (which the default's read does not show) is named too.
 */
function withLocales(fields: string[], locales: Record<string, string[]> | undefined): string[] {
  if (!locales) return fields;
  const named = [...fields];
  for (const [code, columns] of Object.entries(locales)) {
    for (const column of columns) {
      if (!named.includes(column)) named.push(column);
      named.push(`${column}${LOCALE_MARK}${code}`);
    }
  }
  return named;
}

/**
 * Records the rows an import wrote as created by it (origin `import`), in `trx`, a transaction of
 * the caller's after the import has committed: the import writes in bulk, the engine's way, and its
 * rows then have a history like rows created one by one, recorded for all rows or none.
 */
export async function recordImported(
  trx: Kysely<QuireDatabase>,
  type: ContentType,
  rows: readonly StoredRow[],
  options: { by: string | null; at: string },
): Promise<void> {
  if (rows.length === 0) return;
  const revisions = rows.map((row) => ({
    table_name: type.table,
    row_id: String(row.id),
    action: 'create' as const,
    snapshot: JSON.stringify(withoutSearchTexts(row)),
    changed: JSON.stringify(changedFields(type, null, row)),
    changed_by: options.by,
    changed_at: options.at,
    origin: 'import' as const,
    restored_from: null,
  }));
  await new RevisionRepository(trx).insertMany(revisions);
}

/**
 * A new row may not take the id of a row in the trash: its restore would then find a row that is
 * not the deleted one and answer that nothing is in the trash. A restore itself is recorded as
 * `restore`, so it is never refused here.
 */
async function refuseTrashedId(repository: RevisionRepository, table: string, rowId: string, since: string) {
  const newest = await repository.newest(table, rowId);
  if (newest?.action !== 'delete' || newest.changed_at < since) return;
  throw new AppError(
    'conflict',
    `A deleted ${table} row with id ${JSON.stringify(rowId)} is in the trash: restore it, or choose another id`,
    { id: { code: 'in_trash', table } },
  );
}

/**
 * The fields a change set (a new row: those with a value) or changed (compared in their JSON form,
 * so a stored text and the same value parsed compare equal); none for a delete. Meta counts as one
 * field, `meta`; system fields are not named.
 */
export function changedFields(type: ContentType, before: StoredRow | null, after: StoredRow | null): string[] {
  if (after === null) return [];
  const next = formatRow(type, after) as Record<string, unknown>;
  const previous = before === null ? null : (formatRow(type, before) as Record<string, unknown>);
  const names = [...type.columns.map((column) => column.name), 'meta'];
  return names.filter((name) => {
    const value = JSON.stringify(next[name] ?? null);
    if (previous === null) return value !== 'null' && value !== '[]' && value !== '""';
    return value !== JSON.stringify(previous[name] ?? null);
  });
}
