import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { postgresForTests, skipNote, useOpenedTestDatabase } from '../../test-support/postgres.js';
import type { PostgresQuireDb } from '../database.js';
import { sendLater } from '../queries/later-statements.js';

/** The check a row write's transaction makes with its COMMIT (postgres-registry-check.ts), below the API. */

const postgres = await postgresForTests();

describe.skipIf(!postgres.available)(`the content types check on PostgreSQL${skipNote(postgres)}`, () => {
  const opened = useOpenedTestDatabase(postgres.url);
  let quire: PostgresQuireDb;
  let db: Kysely<unknown>;
  beforeAll(() => {
    quire = opened();
    db = quire.db as unknown as Kysely<unknown>;
  });

  const version = async () =>
    Number((await sql<{ version: number }>`select version from quire_registry_version`.execute(db)).rows[0].version);
  const notes = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from categories`.execute(db)).rows[0].n);

  /** A transaction writing a row, checked against `at`. */
  const writeAt = (at: number) =>
    db.transaction().execute(async (trx) => {
      await trx.executeQuery(
        sendLater(
          sql`insert into categories (id, title, slug, created_at, updated_at)
            values (gen_random_uuid()::text, 'Harbour', 'harbour-' || random(), '2026-01-01 00:00:00', '2026-01-01 00:00:00')`.compile(
            trx,
          ),
        ),
      );
      await quire.engine.registryCheck?.check(trx, at);
    });

  it('lets a write at the current version commit', async () => {
    const before = await notes();
    await writeAt(await version());
    expect(await notes()).toBe(before + 1);
  });

  it('fails a write whose types are older, with its own code, and keeps nothing of it', async () => {
    const current = await version();
    await sql`update quire_registry_version set version = version + 1`.execute(db);
    const before = await notes();
    const error = await writeAt(current).catch((caught: unknown) => caught);
    expect(quire.engine.registryCheck?.isTypesChanged(error)).toBe(true);
    expect(await notes()).toBe(before);
    // A type object not loaded here (-1) never matches.
    expect(quire.engine.registryCheck?.isTypesChanged(await writeAt(-1).catch((caught: unknown) => caught))).toBe(true);
  });
});
