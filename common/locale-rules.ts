/**
 * The site's languages: which locale codes are valid and in what case they are kept, what makes a
 * locales document valid, and the order a locale's values are looked up in. Shared by the server
 * (which refuses what breaks them) and the editor (which says so before saving). Pure: no Node,
 * DOM or package imports; codes are checked by `Intl.getCanonicalLocales`, which browsers and Node
 * both have, so both sides agree on what a BCP 47 tag is and on its canonical case.
 */
import { type FieldProblems, noProblems } from './field-problems.js';
import type { LocalesDocument, SiteLocale } from './locale-contract.js';

/** A site's languages before any are set: one, English, the default, which is how every site reads. */
export const DEFAULT_LOCALES: LocalesDocument = Object.freeze({
  default: 'en',
  locales: Object.freeze([Object.freeze({ code: 'en', label: 'English' })]) as SiteLocale[],
}) as LocalesDocument;

/** Most locales a site lists. */
export const MAX_LOCALES = 100;

/** Longest locale label. */
export const MAX_LOCALE_LABEL = 100;

/** Longest locale code (a tag with a script, a region and a variant fits well within it). */
export const MAX_LOCALE_CODE = 35;

/**
 * Column types that may hold a value per locale (`"localized": true`): words a translator changes
 * and per-language images. Choices, numbers, flags, dates and relations stay shared by all locales.
 */
export const LOCALIZABLE_COLUMN_TYPES: ReadonlySet<string> = new Set([
  'text',
  'textarea',
  'markdown',
  'slug',
  'tags',
  'image',
]);

/** Codes a locale may not have: `all` asks a read for every locale at once (`?locale=all`). */
export const RESERVED_LOCALE_CODES: readonly string[] = ['all'];

/**
 * `raw` as a BCP 47 tag in canonical case (`de-at` -> `de-AT`, `ZH-hant-tw` -> `zh-Hant-TW`), or
 * null when it is not one (or too long, or holds anything but letters, digits and `-`).
 */
export function canonicalLocaleCode(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_LOCALE_CODE) return null;
  // `Intl` also takes `_` and surrounding space in some engines; the API keeps to the tag's own syntax.
  if (!/^[A-Za-z0-9-]+$/.test(raw)) return null;
  try {
    const [code] = Intl.getCanonicalLocales(raw);
    return code ?? null;
  } catch {
    return null;
  }
}

/** A locales document checked: the document as kept (canonical codes, no empty chains), or what is wrong with it. */
export type LocalesCheck = { document: LocalesDocument; problems: null } | { document: null; problems: FieldProblems };

/**
 * Checks a locales document sent by a client. Problems are keyed by where they are: `default`,
 * `locales`, `locales[2].code`, `locales[2].label`, `locales[2].fallback`. The rules: 1 to
 * MAX_LOCALES locales, each code a BCP 47 tag listed once (compared in canonical case) and not
 * reserved, each label non-empty, the default one of the codes and without a fallback of its own,
 * each fallback chain naming only listed locales, each at most once, never the locale itself, and
 * no locale reaching itself through the chains (a loop).
 */
export function checkLocalesDocument(input: unknown): LocalesCheck {
  const problems = noProblems();
  const body = isRecord(input) ? input : {};
  const list = body.locales;
  if (!Array.isArray(list) || list.length === 0) {
    problems.locales = { code: 'not_a_list' };
    return { document: null, problems };
  }
  if (list.length > MAX_LOCALES) {
    problems.locales = { code: 'too_many', max: MAX_LOCALES, of: 'locales' };
    return { document: null, problems };
  }
  const locales: SiteLocale[] = [];
  const rawChains: unknown[] = [];
  const seen = new Set<string>();
  list.forEach((entry, index) => {
    const at = `locales[${index}]`;
    if (!isRecord(entry)) {
      problems[at] = { code: 'not_an_object' };
      return;
    }
    const unknown = Object.keys(entry).filter((name) => !['code', 'label', 'fallback'].includes(name));
    if (unknown.length > 0) problems[at] = { code: 'unknown_members', members: unknown };
    const code = canonicalLocaleCode(entry.code);
    if (code === null) problems[`${at}.code`] = { code: 'not_a_locale_code' };
    else if (RESERVED_LOCALE_CODES.includes(code.toLowerCase()))
      problems[`${at}.code`] = { code: 'reserved', name: code };
    else if (seen.has(code)) problems[`${at}.code`] = { code: 'locale_listed_twice', locale: code };
    const label = typeof entry.label === 'string' ? entry.label.trim() : '';
    if (label === '' || label.length > MAX_LOCALE_LABEL) {
      problems[`${at}.label`] = { code: 'not_a_label', max: MAX_LOCALE_LABEL };
    }
    if (code !== null) seen.add(code);
    locales.push({ code: code ?? '', label });
    rawChains.push(entry.fallback);
  });
  const codes = locales.map((locale) => locale.code).filter((code) => code !== '');
  const defaultCode = canonicalLocaleCode(body.default);
  if (defaultCode === null || !seen.has(defaultCode)) problems.default = { code: 'not_an_option', options: codes };
  locales.forEach((locale, index) => {
    const chain = checkChain(rawChains[index], locale.code, seen, codes);
    const at = `locales[${index}].fallback`;
    if ('problem' in chain) problems[at] = chain.problem;
    else if (chain.codes.length > 0) {
      if (locale.code === defaultCode) problems[at] = { code: 'default_falls_back' };
      locale.fallback = chain.codes;
    }
  });
  if (Object.keys(problems).length > 0) return { document: null, problems };
  const loop = fallbackLoop(locales);
  if (loop) {
    problems[`locales[${locales.findIndex((locale) => locale.code === loop[0])}].fallback`] = {
      code: 'fallback_loop',
      locales: loop,
    };
    return { document: null, problems };
  }
  return { document: { default: defaultCode as string, locales }, problems: null };
}

/** A fallback chain as sent, checked: its canonical codes, or its one problem. */
function checkChain(
  raw: unknown,
  own: string,
  listed: ReadonlySet<string>,
  codes: string[],
): { codes: string[] } | { problem: FieldProblems[string] } {
  if (raw === undefined || raw === null) return { codes: [] };
  if (!Array.isArray(raw) || raw.some((code) => typeof code !== 'string')) return { problem: { code: 'not_a_list' } };
  const chain: string[] = [];
  for (const entry of raw) {
    const code = canonicalLocaleCode(entry);
    if (code === null || !listed.has(code)) return { problem: { code: 'not_an_option', options: codes } };
    if (code === own) return { problem: { code: 'falls_back_to_itself' } };
    if (chain.includes(code)) return { problem: { code: 'locale_listed_twice', locale: code } };
    chain.push(code);
  }
  return { codes: chain };
}

/**
 * A loop among the chains (`de` falling back to `de-AT`, which falls back to `de`), as the codes
 * along it from its first locale in list order back to that locale, or null when there is none.
 * Chains are not followed when values are looked up, but a loop says two locales each stand in
 * for the other, which no translation means.
 */
export function fallbackLoop(locales: readonly SiteLocale[]): string[] | null {
  const chains = new Map(locales.map((locale) => [locale.code, locale.fallback ?? []]));
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (code: string): string[] | null => {
    const at = path.indexOf(code);
    if (at >= 0) return [...path.slice(at), code];
    if (done.has(code)) return null;
    path.push(code);
    for (const next of chains.get(code) ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    done.add(code);
    return null;
  };
  for (const locale of locales) {
    const loop = visit(locale.code);
    if (loop) return loop;
  }
  return null;
}

/** The listed locale `raw` names (in any case: `de-at` is `de-AT`), or undefined. */
export function findLocale(document: LocalesDocument, raw: unknown): SiteLocale | undefined {
  const code = canonicalLocaleCode(raw);
  return code === null ? undefined : document.locales.find((locale) => locale.code === code);
}

/**
 * The locales a value of `code` is looked up in, in order: the locale itself, then its fallback
 * chain as written. The default locale is not added at the end: a chain that should end in it
 * names it (`de-AT`: `["de","en"]`), so a chain of none means "this locale's own values only".
 * Chains are not followed further (`de-AT` does not take `de`'s chain): the chain is the whole
 * order, read at a glance. An unlisted code looks up nothing.
 */
export function resolutionOrder(document: LocalesDocument, code: string): string[] {
  const locale = findLocale(document, code);
  return locale ? [locale.code, ...(locale.fallback ?? [])] : [];
}

/** The codes `before` lists and `after` no longer does, in `before`'s order. */
export function removedLocales(before: LocalesDocument, after: LocalesDocument): string[] {
  const kept = new Set(after.locales.map((locale) => locale.code));
  return before.locales.map((locale) => locale.code).filter((code) => !kept.has(code));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
