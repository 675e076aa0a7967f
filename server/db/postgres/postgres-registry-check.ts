import { type Kysely, sql } from 'kysely';
import { sendLater } from '../queries/later-statements.js';

/**
 * Where servers share a database (PostgreSQL), a row write runs on the content types as this
 * server loaded them, and its transaction checks, just before its COMMIT and sent with it, that
 * no other server has changed them since: a read of the registry's version before every write cost
 * a round trip of its own (a third of a create's). The check fails the transaction when the version
 * moved; the write is then run again on the types as they are now (services.ts, `writeWithType`).
 */

/** The function a write's transaction calls (made by migration 022). */
const CHECK_FUNCTION = 'quire_registry_is';

/** The SQLSTATE the check fails with: a class of Quire's own (PostgreSQL leaves such codes to applications). */
export const TYPES_CHANGED_SQLSTATE = 'QU001';

/** Makes the function (again: it is replaced as it is). */
export async function createRegistryCheck(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function ${sql.id(CHECK_FUNCTION)}(expected bigint) returns void
    language plpgsql volatile as $$
    begin
      if (select version from quire_registry_version where id = 1) is distinct from expected then
        raise exception 'content types changed since this write''s were loaded (version %)', expected
          using errcode = '${sql.raw(TYPES_CHANGED_SQLSTATE)}';
      end if;
    end $$`.execute(db);
}

/** Fails the transaction `db` unless the registry is at `version` (sent with the next statement awaited). */
export async function checkRegistryVersion(db: Kysely<unknown>, version: number): Promise<void> {
  await db.executeQuery(sendLater(sql`select ${sql.id(CHECK_FUNCTION)}(${version})`.compile(db)));
}

/** Whether `error` is that check's failure. */
export function isTypesChanged(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === TYPES_CHANGED_SQLSTATE;
}
