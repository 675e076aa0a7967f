import { describe, expect, it } from 'vitest';
import { describeProblem } from './field-problems.js';
import {
  canonicalLocaleCode,
  checkLocalesDocument,
  DEFAULT_LOCALES,
  fallbackLoop,
  findLocale,
  MAX_LOCALES,
  removedLocales,
  resolutionOrder,
} from './locale-rules.js';

const ISSUE_EXAMPLE = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
  ],
};

describe('locale codes', () => {
  it('are BCP 47 tags kept in canonical case', () => {
    expect(canonicalLocaleCode('de-at')).toBe('de-AT');
    expect(canonicalLocaleCode('EN')).toBe('en');
    expect(canonicalLocaleCode('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(canonicalLocaleCode('sr-latn')).toBe('sr-Latn');
    expect(canonicalLocaleCode('es-419')).toBe('es-419');
  });

  it('refuse what is not a tag', () => {
    for (const raw of [
      '',
      'e',
      'englishlanguage',
      'de_AT',
      ' de',
      'de-',
      '-de',
      'de--AT',
      '12',
      'x',
      42,
      null,
      undefined,
    ]) {
      expect(canonicalLocaleCode(raw), String(raw)).toBeNull();
    }
    expect(canonicalLocaleCode(`de-${'a'.repeat(40)}`)).toBeNull();
  });
});

describe('a locales document', () => {
  it('takes the issue’s example as it is', () => {
    expect(checkLocalesDocument(ISSUE_EXAMPLE)).toEqual({ document: ISSUE_EXAMPLE, problems: null });
  });

  it('is kept with canonical codes, trimmed labels and no empty chains', () => {
    const check = checkLocalesDocument({
      default: 'EN',
      locales: [
        { code: 'en', label: ' English ', fallback: [] },
        { code: 'de-at', label: 'Österreich', fallback: ['EN'] },
      ],
    });
    expect(check.document).toEqual({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de-AT', label: 'Österreich', fallback: ['en'] },
      ],
    });
  });

  it('refuses codes that are not tags, listed twice (in any case) or reserved', () => {
    const check = checkLocalesDocument({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de_AT', label: 'Österreich' },
        { code: 'EN', label: 'Again' },
        { code: 'all', label: 'All' },
      ],
    });
    expect(check.problems).toEqual({
      'locales[1].code': { code: 'not_a_locale_code' },
      'locales[2].code': { code: 'locale_listed_twice', locale: 'en' },
      'locales[3].code': { code: 'reserved', name: 'all' },
    });
  });

  it('needs a default among its codes, with no fallback of its own', () => {
    const missing = checkLocalesDocument({ default: 'fr', locales: [{ code: 'en', label: 'English' }] });
    expect(missing.problems).toEqual({ default: { code: 'not_an_option', options: ['en'] } });
    const falling = checkLocalesDocument({
      default: 'de',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['en'] },
      ],
    });
    expect(falling.problems).toEqual({ 'locales[1].fallback': { code: 'default_falls_back' } });
  });

  it('needs labels, a list of 1 to 100 locales, and objects with known members', () => {
    expect(checkLocalesDocument({ default: 'en', locales: [] }).problems).toEqual({ locales: { code: 'not_a_list' } });
    expect(checkLocalesDocument({ default: 'en' }).problems).toEqual({ locales: { code: 'not_a_list' } });
    const many = Array.from({ length: MAX_LOCALES + 1 }, (_, index) => ({ code: `x-${index}`, label: 'x' }));
    expect(checkLocalesDocument({ default: 'x-0', locales: many }).problems).toEqual({
      locales: { code: 'too_many', max: MAX_LOCALES, of: 'locales' },
    });
    const check = checkLocalesDocument({
      default: 'en',
      locales: [{ code: 'en', label: '  ', colour: 'red' }, 'de'],
    });
    expect(check.problems).toEqual({
      'locales[0]': { code: 'unknown_members', members: ['colour'] },
      'locales[0].label': { code: 'not_a_label', max: 100 },
      'locales[1]': { code: 'not_an_object' },
    });
  });

  it('refuses a fallback to an unknown locale, to itself, twice, or not a list', () => {
    const check = checkLocalesDocument({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['nl'] },
        { code: 'fr', label: 'Français', fallback: ['fr'] },
        { code: 'es', label: 'Español', fallback: ['en', 'EN'] },
        { code: 'it', label: 'Italiano', fallback: 'en' },
      ],
    });
    expect(check.problems).toEqual({
      'locales[1].fallback': { code: 'not_an_option', options: ['en', 'de', 'fr', 'es', 'it'] },
      'locales[2].fallback': { code: 'falls_back_to_itself' },
      'locales[3].fallback': { code: 'locale_listed_twice', locale: 'en' },
      'locales[4].fallback': { code: 'not_a_list' },
    });
    // A code not listed is unknown even when it is a fine tag.
    const unknown = checkLocalesDocument({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de-AT', label: 'Österreich', fallback: ['de'] },
      ],
    });
    expect(unknown.problems).toEqual({ 'locales[1].fallback': { code: 'not_an_option', options: ['en', 'de-AT'] } });
  });

  it('refuses loops, naming the locales along it', () => {
    const check = checkLocalesDocument({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['de-CH', 'en'] },
        { code: 'de-AT', label: 'Österreich', fallback: ['de'] },
        { code: 'de-CH', label: 'Schweiz', fallback: ['de-AT'] },
      ],
    });
    expect(check.problems).toEqual({
      'locales[1].fallback': { code: 'fallback_loop', locales: ['de', 'de-CH', 'de-AT', 'de'] },
    });
    expect(describeProblem(check.problems?.['locales[1].fallback'] as never)).toBe(
      'makes a loop: de -> de-CH -> de-AT -> de',
    );
    expect(fallbackLoop(ISSUE_EXAMPLE.locales)).toBeNull();
  });
});

describe('resolution order', () => {
  it('is the locale, then its chain as written, without the default added', () => {
    expect(resolutionOrder(ISSUE_EXAMPLE, 'de-AT')).toEqual(['de-AT', 'de', 'en']);
    expect(resolutionOrder(ISSUE_EXAMPLE, 'de')).toEqual(['de', 'en']);
    expect(resolutionOrder(ISSUE_EXAMPLE, 'en')).toEqual(['en']);
    const noChain = { default: 'en', locales: [...ISSUE_EXAMPLE.locales, { code: 'fr', label: 'Français' }] };
    expect(resolutionOrder(noChain, 'fr')).toEqual(['fr']);
  });

  it('does not follow chains further', () => {
    const short = {
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['en'] },
        { code: 'de-AT', label: 'Österreich', fallback: ['de'] },
      ],
    };
    expect(resolutionOrder(short, 'de-AT')).toEqual(['de-AT', 'de']);
  });

  it('finds locales in any case, and nothing for unlisted ones', () => {
    expect(resolutionOrder(ISSUE_EXAMPLE, 'de-at')).toEqual(['de-AT', 'de', 'en']);
    expect(findLocale(ISSUE_EXAMPLE, 'DE')?.label).toBe('Deutsch');
    expect(resolutionOrder(ISSUE_EXAMPLE, 'fr')).toEqual([]);
    expect(findLocale(ISSUE_EXAMPLE, 'not a tag')).toBeUndefined();
  });
});

describe('the site before any locale is set', () => {
  it('has English alone, the default', () => {
    expect(DEFAULT_LOCALES).toEqual({ default: 'en', locales: [{ code: 'en', label: 'English' }] });
    expect(checkLocalesDocument(DEFAULT_LOCALES).document).toEqual(DEFAULT_LOCALES);
    expect(resolutionOrder(DEFAULT_LOCALES, 'en')).toEqual(['en']);
  });

  it('says which locales a change removes', () => {
    expect(removedLocales(ISSUE_EXAMPLE, DEFAULT_LOCALES)).toEqual(['de', 'de-AT']);
    expect(removedLocales(DEFAULT_LOCALES, ISSUE_EXAMPLE)).toEqual([]);
  });
});
