import { useQuery } from '@tanstack/react-query';
import type { LocalesDocument } from '../../../common/locale-contract.js';
import { localesApi } from '../api/locales-api.js';

/** The cache key of the site's locales as the row editor and the list read them. */
export const SITE_LOCALES_KEY = ['site-locales'];

/** The site's locales (`GET /api/locales`), read again whenever a screen that shows them opens. */
export function useSiteLocales() {
  return useQuery({
    queryKey: SITE_LOCALES_KEY,
    queryFn: async () => (await localesApi.get()).body,
    staleTime: 0,
  });
}

/** What a locale is called on this site (its label), or its code when it is not listed. */
export function localeLabel(site: LocalesDocument, code: string): string {
  return site.locales.find((locale) => locale.code === code)?.label ?? code;
}

/** Whether the site lists `code`. */
export function isListed(site: LocalesDocument, code: string | null): code is string {
  return code !== null && site.locales.some((locale) => locale.code === code);
}

/**
 * The locale a translator most likely works from while translating into `code`: the first of its
 * fallback chain, else the default locale, else the first other one (null: there is no other).
 */
export function sourceFor(site: LocalesDocument, code: string): string | null {
  const chain = site.locales.find((locale) => locale.code === code)?.fallback ?? [];
  const candidates = [...chain, site.default, ...site.locales.map((locale) => locale.code)];
  return candidates.find((candidate) => candidate !== code && isListed(site, candidate)) ?? null;
}
