import type { ContentRow, LastChange } from '../../common/api-contract.js';
import type { ContentType } from '../content/content-type.js';
import { staleWrite, type WriteCheck } from '../content/row-versions.js';
import { AppError } from '../errors/app-error.js';
import { type IfMatch, ifMatchHolds } from './if-match.js';
import { type Services, typeByTable } from './services.js';

/** A row as its read answers it now: the row, the read's ETag and the stored version it showed. */
export interface CurrentRow {
  row: ContentRow;
  etag: string;
  version: string;
}

/**
 * A row write under `If-Match` (RFC 9110 13.1.1): the row is read as the caller's GET would read it
 * and its ETag compared strongly; then `write` runs with the version that read showed, which the
 * write's transaction holds against the row as it finds it, so a change committed in between is
 * caught with no window. Either failure is a 412 `stale_write` with the row as it is now, its ETag
 * and its last change; nothing is written. An update's answer carries the written row's ETag, the
 * one the next read gives (none when another write landed right after it).
 */
export async function conditionalRowWrite<T>(
  services: Services,
  target: { table: string; id: string; read: () => Promise<CurrentRow> },
  condition: IfMatch,
  write: (check: WriteCheck) => Promise<T>,
): Promise<{ value: T; etag: string | null }> {
  const { table, id } = target;
  const current = () => currentRow(services, target);
  const before = await current();
  if (!before || !ifMatchHolds(condition, before.etag)) throw await staleError(services, table, id, before);
  let written: string | null = null;
  const check: WriteCheck = {
    expected: condition.any ? null : before.version,
    written: (version) => {
      written = version;
    },
  };
  let value: T;
  try {
    value = await write(check);
  } catch (error) {
    if (!(error instanceof AppError) || (error.code !== 'stale_write' && error.code !== 'not_found')) throw error;
    const now = await current();
    // A not_found that is not the row having gone (a relation's target) stays what it is.
    if (error.code === 'not_found' && now) throw error;
    throw await staleError(services, table, id, now);
  }
  if (written === null) return { value, etag: null };
  const after = await current();
  return { value, etag: after?.version === written ? after.etag : null };
}

/** The row as the caller's read answers it now, or null when there is no such row. */
async function currentRow(
  services: Services,
  target: { table: string; read: () => Promise<CurrentRow> },
): Promise<CurrentRow | null> {
  try {
    return await target.read();
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      // The type itself missing stays a 404.
      services.registry.requireByTable(target.table);
      return null;
    }
    throw error;
  }
}

/** The 412 of a stale write: what is stored now (null: nothing), its ETag and its last change. */
async function staleError(services: Services, table: string, id: string, now: CurrentRow | null): Promise<AppError> {
  const error = staleWrite();
  const lastChange = await lastChangeOf(services, await typeByTable(services, table), id);
  error.stale = { current: now?.row ?? null, etag: now?.etag ?? null, lastChange };
  return error;
}

/** A row's newest revision as a LastChange, or null when none is recorded. */
async function lastChangeOf(services: Services, type: ContentType, id: string): Promise<LastChange | null> {
  try {
    const [newest] = (await services.revisions.list(type, id, { limit: 1, offset: 0 })).revisions;
    return newest ? { action: newest.action, by: newest.by, at: newest.at, fields: newest.fields } : null;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return null;
    throw error;
  }
}
