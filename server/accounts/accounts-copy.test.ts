// Engine: both in one run: accounts carried by backups and `quire copy` from SQLite to a PostgreSQL database of its own
// and back.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copySite } from '../backup/site-copy-service.js';
import { openDatabase, openPostgresDatabase } from '../db/database.js';
import { AccountRepository } from '../db/repositories/account-repository.js';
import { backupFile } from '../db/sqlite/sqlite-backup.js';
import { restoreDatabase } from '../db/sqlite/sqlite-restore.js';
import { createTestDatabase, postgresForTests, skipNote } from '../test-support/postgres.js';
import { TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { AccountService } from './account-service.js';
import { TokenService } from './token-service.js';

const postgres = await postgresForTests();

describe('backups carry accounts (their editor language too) and tokens', () => {
  it('a SQLite backup restored elsewhere signs the same people in and accepts the same tokens', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-accounts-backup-'));
    try {
      const file = join(dir, 'site.sqlite');
      const site = await openDatabase(file);
      const accounts = new AccountService({ repository: new AccountRepository(site.db) });
      await accounts.add({ name: 'ada', role: 'admin', password: TEAM_PASSWORD });
      await accounts.setLanguage('ada', 'de');
      const { token } = await new TokenService({ repository: new AccountRepository(site.db) }).add({
        name: 'ci',
        role: 'viewer',
      });
      await site.close();
      const backup = await backupFile(file);
      const restored = join(dir, 'restored.sqlite');
      await restoreDatabase(backup, restored);
      const again = await openDatabase(restored);
      try {
        const repository = new AccountRepository(again.db);
        expect(await new AccountService({ repository }).signIn('ada', TEAM_PASSWORD)).not.toBeNull();
        expect(await new AccountService({ repository }).languageOf('ada')).toBe('de');
        expect(await new TokenService({ repository }).principal(token)).toMatchObject({ name: 'ci', role: 'viewer' });
      } finally {
        await again.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!postgres.available)(`quire copy carries accounts and tokens${skipNote(postgres)}`, () => {
  it('from SQLite to PostgreSQL and back: the same accounts, passwords and tokens, no sessions', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'quire-accounts-copy-'));
    const pg = await createTestDatabase(postgres.url);
    const source = await openDatabase(join(dir, 'source.sqlite'));
    const middle = await openPostgresDatabase(pg.target);
    const back = await openDatabase(join(dir, 'back.sqlite'));
    try {
      const accounts = new AccountService({ repository: new AccountRepository(source.db) });
      await accounts.add({ name: 'ada', role: 'admin', password: TEAM_PASSWORD });
      await accounts.add({ name: 'aldo', role: 'author', password: TEAM_PASSWORD, content_types: ['news'] });
      await accounts.setLanguage('aldo', 'fr');
      expect(await accounts.signIn('ada', TEAM_PASSWORD)).not.toBeNull(); // a session, which stays behind
      const token = (
        await new TokenService({ repository: new AccountRepository(source.db) }).add({ name: 'ci', role: 'editor' })
      ).token;

      await copySite(source, middle, { force: true });
      await copySite(middle, back, { force: true });
      for (const copy of [middle, back]) {
        const repository = new AccountRepository(copy.db);
        expect(await repository.listAccounts()).toEqual(await new AccountRepository(source.db).listAccounts());
        expect(await new AccountService({ repository }).signIn('aldo', TEAM_PASSWORD)).not.toBeNull();
        expect(await new AccountService({ repository }).languageOf('aldo')).toBe('fr');
        expect(await new TokenService({ repository }).principal(token)).toMatchObject({ name: 'ci', role: 'editor' });
      }
      const sessions = async (db: typeof back.db) =>
        (await (db as any).selectFrom('quire_sessions').select('account_id').execute()).length;
      // The copies' own sign-ins above are their only sessions.
      expect(await sessions(back.db)).toBe(1);
    } finally {
      await Promise.all([source.close(), middle.close(), back.close()]);
      await pg.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
