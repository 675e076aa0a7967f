import type { Kysely } from 'kysely';
import { timestampNow } from '../../common/datetime-syntax.js';
import type { RevisionAction } from '../../common/revision-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { RowScope, WriteLog } from '../content/content-writes.js';
import { formatRow } from '../content/row-format.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { RevisionRepository } from '../db/repositories/revision-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';

/**
 * What recording needs: the clock, how many revisions a row keeps (null: all), and the oldest
 * delete the trash still holds (rows deleted since can be restored, so their ids stay theirs).
 */
export interface RecordOptions {
  now: () => Date;
  keepRevisions: number | null;
  trashSince: () => string;
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
  options: RecordOptions,
): Promise<void> {
  const repository = new RevisionRepository(trx);
  const at = timestampNow(options.now());
  for (const { before, after, idChosen } of log.changes) {
    const row = after ?? before;
    if (!row) continue;
    const action: RevisionAction =
      after === null ? 'delete' : scope.restore ? 'restore' : before === null ? 'create' : 'update';
    const rowId = String(row.id);
    if (action === 'create' && idChosen) {
      await refuseTrashedId(repository, scope.type.table, rowId, options.trashSince());
    }
    await repository.insert({
      table_name: scope.type.table,
      row_id: rowId,
      action,
      snapshot: JSON.stringify(row),
      changed: JSON.stringify(changedFields(scope.type, before, after)),
      changed_by: scope.by ?? null,
      changed_at: at,
    });
    if (options.keepRevisions !== null) await repository.keepNewest(scope.type.table, rowId, options.keepRevisions);
  }
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
