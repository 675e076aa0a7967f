// Engine: both in one run: two-factor sign-in carried by backups and `quire copy` from SQLite to a PostgreSQL database
// of its own and back.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { copySite } from '../backup/site-copy-service.js';
import { openDatabase, openPostgresDatabase, type QuireDb } from '../db/database.js';
import { AccountRepository } from '../db/repositories/account-repository.js';
import { TwoFactorRepository } from '../db/repositories/two-factor-repository.js';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { createTestDatabase, postgresForTests, skipNote } from '../test-support/postgres.js';
import { TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { AccountService } from './account-service.js';
import { TwoFactorService } from './two-factor-service.js';

/**
 * An account's two-factor sign-in survives a backup restored elsewhere and `quire copy` (SQLite to
 * PostgreSQL and back): the copy asks for the second factor, takes the app's next code and an
 * unused recovery code, and still refuses the code already used at enrolment.
 */

const postgres = await postgresForTests();
const NOW = Date.UTC(2026, 10, 28, 20, 40, 5);
const services = (db: QuireDb) => {
  const twoFactor = new TwoFactorService({ repository: new TwoFactorRepository(db.db), now: () => NOW });
  return {
    twoFactor,
    accounts: new AccountService({ repository: new AccountRepository(db.db), secondFactor: twoFactor }),
  };
};
const code = (secret: string, steps: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: NOW + steps * 30_000 });

/** Adds ada with two-factor sign-in on: her key, and the code and recovery codes enrolment gave. */
async function enrolled(db: QuireDb): Promise<{ secret: string; used: string; recovery: string[] }> {
  const { accounts, twoFactor } = services(db);
  await accounts.add({ name: 'ada', role: 'admin', password: TEAM_PASSWORD });
  const { secret } = await twoFactor.beginEnrolment('ada');
  const used = code(secret, 0);
  return { secret, used, recovery: await twoFactor.confirmEnrolment('ada', used) };
}

/** What the copy does with ada's sign-in: asks for the second factor, and which codes it takes. */
async function expectCarried(db: QuireDb, ada: { secret: string; used: string; recovery: string[] }) {
  const { accounts, twoFactor } = services(db);
  const pending = await accounts.signIn('ada', TEAM_PASSWORD);
  expect(pending).toMatchObject({ name: 'ada' });
  const row = await twoFactor.challenged((pending as { challenge: string }).challenge);
  expect(row).toBeDefined();
  if (!row) return;
  expect(await twoFactor.redeemCode(row, ada.used)).toBe(false);
  expect(await twoFactor.redeemCode(row, ada.recovery[2])).toBe(true);
  expect(await twoFactor.redeemCode(row, code(ada.secret, 1))).toBe(true);
  expect(await twoFactor.state('ada')).toMatchObject({ enabled: true, recovery_codes_left: 9 });
}

describe('backups carry two-factor sign-in', () => {
  it('a SQLite backup restored elsewhere asks for the second factor and knows the used code', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-2fa-backup-'));
    try {
      const file = join(dir, 'site.sqlite');
      const site = await openDatabase(file);
      const ada = await enrolled(site);
      await site.close();
      const restored = join(dir, 'restored.sqlite');
      await restoreDatabase(await backupFile(file), restored);
      const again = await openDatabase(restored);
      try {
        await expectCarried(again, ada);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgres.available)(`quire copy carries two-factor sign-in${skipNote(postgres)}`, () => {
  it('from SQLite to PostgreSQL and back', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-2fa-copy-'));
    const pg = await createTestDatabase(postgres.url);
    const source = await openDatabase(join(dir, 'source.sqlite'));
    const middle = await openPostgresDatabase(pg.target);
    const back = await openDatabase(join(dir, 'back.sqlite'));
    try {
      const ada = await enrolled(source);
      // A sign-in waiting for its code stays behind, as sessions do.
      await services(source).accounts.signIn('ada', TEAM_PASSWORD);
      await copySite(source, middle, { force: true });
      await copySite(middle, back, { force: true });
      const waiting = async (db: QuireDb) =>
        (await (db.db as any).selectFrom('quire_two_factor_challenges').select('id').execute()).length;
      expect(await waiting(middle)).toBe(0);
      expect(await waiting(back)).toBe(0);
      await expectCarried(middle, ada);
      await expectCarried(back, ada);
    } finally {
      await Promise.all([source.close(), middle.close(), back.close()]);
      await pg.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
