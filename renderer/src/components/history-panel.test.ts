import { describe, expect, it } from 'vitest';
import type { RevisionSummary } from '../../../common/revision-contract.js';
import { revisionLabel, revisionLocales } from './history-panel.js';

const revision = (fields: Partial<RevisionSummary>): RevisionSummary => ({
  id: 1,
  action: 'update',
  fields: ['title'],
  by: 'ada',
  at: '2026-05-04 09:00:00.000000',
  origin: 'edit',
  restored_from: null,
  ...fields,
});

describe('the history names each change for why it was written', () => {
  it('a person’s edit by what it did', () => {
    expect(revisionLabel(revision({ action: 'create' }))).toBe('Created');
    expect(revisionLabel(revision({}))).toBe('Changed');
    expect(revisionLabel(revision({ action: 'delete' }))).toBe('Deleted');
  });

  it('a scheduled change, a restore with the day of the version it put back, an import', () => {
    expect(revisionLabel(revision({ origin: 'schedule' }))).toBe('Scheduled change');
    const restored = revisionLabel(
      revision({ action: 'restore', origin: 'restore', restored_from: '2026-05-03 12:00:00.000000' }),
    );
    expect(restored).toMatch(/^Restored from (May 3|3 May)(, 2026)?$/);
    expect(revisionLabel(revision({ action: 'create', origin: 'import' }))).toBe('Imported');
  });

  it('a restore recorded before restores named their version says only that it restored', () => {
    expect(revisionLabel(revision({ action: 'restore', origin: 'edit' }))).toBe('Restored an earlier version');
  });
});

describe('the history names the locales each change touched', () => {
  const labelOf = (code: string) => ({ en: 'English', de: 'Deutsch' })[code] ?? code;

  it('by their names, one or several', () => {
    expect(revisionLocales(revision({ locales: { de: ['title'] } }), labelOf)).toBe('Language: Deutsch');
    expect(revisionLocales(revision({ locales: { en: ['title'], de: ['title'], fr: ['title'] } }), labelOf)).toBe(
      'Languages: English, Deutsch, and fr',
    );
  });

  it('none for a change of shared fields only, or of a type without translatable fields', () => {
    expect(revisionLocales(revision({ locales: {} }), labelOf)).toBeNull();
    expect(revisionLocales(revision({}), labelOf)).toBeNull();
  });
});
