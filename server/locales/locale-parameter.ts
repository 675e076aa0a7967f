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
  const known = document.locales.map((locale) => locale.code);
  const locale = typeof raw === 'string' ? findLocale(document, raw) : undefined;
  if (!locale) {
    const named = typeof raw === 'string' ? JSON.stringify(raw) : 'given more than once';
    throw new AppError(
      'bad_request',
      `locale ${named} is not one of the site's locales (${known.join(', ')}, or all)`,
      { locale: { code: 'unknown_locale', locales: known } },
      { code: 'unknown_locale', locales: known },
    );
  }
  return { kind: 'one', code: locale.code };
}
