import type { LocalesDocument } from '../../common/locale-contract.js';
import { findLocale } from '../../common/locale-rules.js';
import { AppError } from '../errors/app-error.js';

/**
 * The locale a request reads or writes in (`?locale=`): one listed locale, or `all` (every
 * locale at once: localized fields as objects keyed by locale code).
 */
export type RequestLocale = { kind: 'one'; code: string } | { kind: 'all' };

/**
 * `raw` (a request's `locale` parameter) checked against the site's locales: absent or empty is
 * the default locale; a listed code in any case is that locale in canonical case; `all` is every
 * locale; anything else a 400 `unknown_locale` listing the known codes.
 */
export function parseLocaleParameter(document: LocalesDocument, raw: unknown): RequestLocale {
  if (raw === undefined || raw === '') return { kind: 'one', code: document.default };
  if (raw === 'all') return { kind: 'all' };
  const locale = typeof raw === 'string' ? findLocale(document, raw) : undefined;
  if (!locale) throw unknownLocale(document, typeof raw === 'string' ? JSON.stringify(raw) : 'given more than once');
  return { kind: 'one', code: locale.code };
}

/**
 * `requested` when `document` still lists it, otherwise the 400 `unknown_locale` of
 * parseLocaleParameter: a request's locale is parsed before its run on the types as loaded, and
 * where another server removed that locale meanwhile, the run again on the types as they are now
 * sees the locales without it.
 */
export function listedLocale(document: LocalesDocument, requested: RequestLocale): RequestLocale {
  if (requested.kind === 'all' || document.locales.some((locale) => locale.code === requested.code)) return requested;
  throw unknownLocale(document, JSON.stringify(requested.code));
}

/** The 400 of a locale `named` that is not one of the site's, listing the known codes. */
function unknownLocale(document: LocalesDocument, named: string): AppError {
  const known = document.locales.map((locale) => locale.code);
  return new AppError(
    'bad_request',
    `locale ${named} is not one of the site's locales (${known.join(', ')}, or all)`,
    { locale: { code: 'unknown_locale', locales: known } },
    { code: 'unknown_locale', locales: known },
  );
}
