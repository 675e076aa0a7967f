import { describe, expect, it } from 'vitest';
import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import { localeStoragePlan, ownValueCounts, restoredRow } from './locale-storage-plan.js';
import { ownValuesOf, storedFromOwn } from './localized-values.js';

const EN_DE: LocalesDocument = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
  ],
};
const DE_FIRST: LocalesDocument = {
  default: 'de',
  locales: [
    { code: 'en', label: 'English', fallback: ['de'] },
    { code: 'de', label: 'Deutsch' },
  ],
};

const title = (localized: boolean, name = 'title'): ColumnDescriptor => ({
  name,
  label: 'Title',
  type: 'text',
  required: false,
  ...(localized ? { localized: true } : {}),
});

describe('localeStoragePlan', () => {
  it('plans nothing for a table without localized columns, whatever the locales', () => {
    expect(
      localeStoragePlan(
        { document: DEFAULT_LOCALES, columns: [title(false)] },
        { document: EN_DE, columns: [title(false)] },
      ),
    ).toEqual({
      renames: [],
      adds: [],
      drops: [],
      reads: [],
      restore: false,
    });
  });

  it('adds the locale and missing columns of a column localized, and stores rows again', () => {
    const plan = localeStoragePlan(
      { document: EN_DE, columns: [title(false)] },
      { document: EN_DE, columns: [title(true)] },
    );
    expect(plan).toMatchObject({ renames: [], drops: [], restore: true });
    expect(plan.adds).toEqual(['quire_loc:de:title', 'quire_missing:en', 'quire_missing:de']);
  });

  it('renames the locale columns of a renamed localized column', () => {
    const plan = localeStoragePlan(
      { document: EN_DE, columns: [title(true)] },
      { document: EN_DE, columns: [title(true, 'heading')] },
      [{ from: 'title', to: 'heading' }],
    );
    expect(plan).toMatchObject({
      renames: [{ from: 'quire_loc:de:title', to: 'quire_loc:de:heading' }],
      adds: [],
      drops: [],
      restore: true,
    });
  });

  it('leaves a table whose locales changed only in their labels alone', () => {
    const relabelled = { ...EN_DE, locales: [EN_DE.locales[0], { ...EN_DE.locales[1], label: 'German' }] };
    const plan = localeStoragePlan(
      { document: EN_DE, columns: [title(true)] },
      { document: relabelled, columns: [title(true)] },
    );
    expect(plan.restore).toBe(false);
  });

  it('moves values between the column and the locale columns when the default changes, keeping own values', () => {
    const columns = [title(true)];
    const row = { id: 'a', ...storedFromOwn(EN_DE, columns, { en: { title: 'Harbour' }, de: { title: 'Hafen' } }) };
    const plan = localeStoragePlan({ document: EN_DE, columns }, { document: DE_FIRST, columns });
    expect(plan).toMatchObject({ adds: ['quire_loc:en:title'], drops: ['quire_loc:de:title'], restore: true });
    const after = {
      ...row,
      'quire_loc:en:title': null,
      ...restoredRow({ document: EN_DE, columns }, { document: DE_FIRST, columns }, [], row),
    };
    expect(after).toMatchObject({ title: 'Hafen', 'quire_loc:en:title': 'Harbour' });
    expect(ownValuesOf(DE_FIRST, columns, after)).toEqual({ en: { title: 'Harbour' }, de: { title: 'Hafen' } });
  });
});

describe('restoredRow', () => {
  it('keeps an empty default value as written and names the others as falling back to it', () => {
    const changed = restoredRow(
      { document: EN_DE, columns: [title(false)] },
      { document: EN_DE, columns: [title(true)] },
      [],
      {
        id: 'a',
        title: '',
      },
    );
    expect(changed).toEqual({ 'quire_missing:en': '{"title":null}', 'quire_missing:de': '{"title":null}' });
  });
});

describe('ownValueCounts', () => {
  it('counts a locale’s own values, not its fallbacks', () => {
    const columns = [title(true), { ...title(true, 'note'), type: 'textarea' as const }];
    const row = storedFromOwn(EN_DE, columns, { en: { title: 'Harbour', note: 'Quay' }, de: { title: 'Hafen' } });
    expect(ownValueCounts({ document: EN_DE, columns }, row, ['de', 'en'])).toEqual({ de: 1, en: 2 });
  });
});
