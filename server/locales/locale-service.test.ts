import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import { ContentWrites } from '../content/content-writes.js';
import { LocaleRepository } from '../db/repositories/locale-repository.js';
import type { QuireDatabase } from '../db/schema.js';
import { AppError } from '../errors/app-error.js';
import { type OpenTestDatabase, openTestDatabase } from '../test-support/test-database.js';
import { LocaleService, type LocaleValues } from './locale-service.js';

/**
 * Removing a locale that holds values: the service asks its `LocaleValues` (what localized columns
 * will answer) in the change's transaction, refuses with a 409 `locale_in_use` unless forced, and
 * has them dropped when forced. Here the values are a stand-in that holds what the test gives it.
 */

const THREE: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'fr', label: 'Français', fallback: ['en'] },
  ],
};

/** Values held per locale, counted and dropped as localized columns will; each call notes its transaction's version. */
function heldValues(held: Record<string, number>): LocaleValues & { seen: number[] } {
  const seen: number[] = [];
  const versionIn = async (trx: Kysely<QuireDatabase>) => (await new LocaleRepository(trx).version()) as number;
  return {
    seen,
    async count(trx, _stored, locales) {
      seen.push(await versionIn(trx));
      return locales.reduce((sum, code) => sum + (held[code] ?? 0), 0);
    },
    async change(trx, before, after) {
      const removed = before.locales.filter(({ code }) => !after.locales.some((kept) => kept.code === code));
      if (removed.length === 0) return;
      seen.push(await versionIn(trx));
      for (const { code } of removed) delete held[code];
    },
  };
}

describe('removing locales that hold values', () => {
  let opened: OpenTestDatabase;
  const held: Record<string, number> = {};
  const values = heldValues(held);
  let service: LocaleService;

  beforeAll(async () => {
    opened = await openTestDatabase();
    const { db, runner } = opened.database;
    service = new LocaleService({ db, writes: new ContentWrites({ db, runner }), values });
    await service.load();
  }, 60_000);
  afterAll(async () => {
    await opened?.dispose();
  });

  it('starts with English alone', () => {
    expect(service.document).toEqual(DEFAULT_LOCALES);
    expect(service.lastChange).toBeNull();
  });

  it('adds locales without asking about values', async () => {
    const change = await service.replace(THREE, { force: false, by: 'ada' });
    expect(change).toEqual({ document: THREE, removed: [] });
    expect(values.seen).toEqual([]);
    expect(service.lastChange).toEqual({ by: 'ada', at: expect.any(String) });
  });

  it('refuses to remove locales holding values, naming them and their count, and changes nothing', async () => {
    Object.assign(held, { de: 2, fr: 1 });
    const version = service.version;
    const refused = await service.replace(DEFAULT_LOCALES, { force: false, by: 'ada' }).catch((error) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).toBody().error).toMatchObject({
      status: 409,
      code: 'conflict',
      detail: { code: 'locale_in_use', locales: ['de', 'fr'], count: 3 },
    });
    expect((refused as AppError).message).toMatch(/^de, fr still hold 3 values;/);
    // Counted inside the change, after its claim of the row.
    expect(values.seen).toEqual([version]);
    const withoutDe = { ...THREE, locales: [THREE.locales[0], THREE.locales[2]] };
    const one = await service.replace(withoutDe, { force: false, by: 'ada' }).catch((error) => error);
    expect((one as AppError).message).toMatch(/^de still holds 2 values;/);
    await service.load();
    expect(service.document).toEqual(THREE);
    expect(service.version).toBe(version);
    expect(held).toEqual({ de: 2, fr: 1 });
  });

  it('removes a locale holding nothing while another still holds values', async () => {
    delete held.fr;
    values.seen.length = 0;
    const kept = { ...THREE, locales: THREE.locales.slice(0, 2) };
    expect((await service.replace(kept, { force: false, by: 'ada' })).removed).toEqual(['fr']);
    expect(service.document).toEqual(kept);
  });

  it('with force, removes them and drops their values in the same change', async () => {
    const change = await service.replace(DEFAULT_LOCALES, { force: true, by: 'ada' });
    expect(change).toEqual({ document: DEFAULT_LOCALES, removed: ['de'] });
    expect(held).toEqual({});
    expect(service.document).toEqual(DEFAULT_LOCALES);
  });
});
