/**
 * The site as its pages see it: one tree per locale (quire-locales.ts), each with every content
 * type and its published rows read in that locale, each row with its page address, title, image
 * sizes, the addresses of the rows its relations point at, the fields that fell back to another
 * locale, and its page in every other tree (`hreflang` alternates).
 */
import { getCollection } from 'astro:content';
import { dateColumn, pagePath, rowTitle, typePath } from './quire-format';
import type { ImageSizes, RowEntry } from './quire-loader';
import { pageName } from './quire-loader';
import { inLocale, type SiteLocale, siteLocales } from './quire-locales';
import { matches } from './quire-source';
import type { ContentRow, ContentTypeSummary, RelationValue } from './quire-types';

/** A page's address in another tree, for `<link rel="alternate" hreflang>` (`x-default`: the default tree's). */
export interface Alternate {
  hreflang: string;
  href: string;
}

/** One row's page. */
export interface SitePage {
  type: ContentTypeSummary;
  /** The row as its tree's locale reads it. */
  row: ContentRow;
  /** The last segment of its address. */
  page: string;
  path: string;
  title: string;
  images: ImageSizes;
  /** For each relation column: the address of the row it points at, or null when the site has no page for it. */
  links: Record<string, string | null>;
  /**
   * The address of every page of its tree by `<type>/<row id>` (the type by its table and by its
   * slug), for relations inside blocks and links to rows inside rich text.
   */
  rowPaths: Record<string, string>;
  /** The tree the page is in. */
  locale: SiteLocale;
  /** Each localized field shown from another locale, with that locale's code. */
  fallbacks: Record<string, string>;
  /** The same row's page in every tree (none when the site has one locale). */
  alternates: Alternate[];
}

/** One content type and its pages, newest first when the type has a date (else by title). */
export interface SiteType {
  type: ContentTypeSummary;
  path: string;
  pages: SitePage[];
  locale: SiteLocale;
  alternates: Alternate[];
}

/** One locale's pages: its home page, its types and their pages. */
export interface SiteTree {
  locale: SiteLocale;
  /** The address of its home page (`/`, `/de/`). */
  home: string;
  types: SiteType[];
  alternates: Alternate[];
}

/** The same page in every tree, and the default tree's as `x-default`; none with one locale. */
function alternatesOf(locales: SiteLocale[], pathIn: (locale: SiteLocale) => string | undefined): Alternate[] {
  if (locales.length < 2) return [];
  const alternates: Alternate[] = [];
  for (const locale of locales) {
    const href = pathIn(locale);
    if (href) alternates.push({ hreflang: locale.lang, href });
  }
  const fallback = pathIn(locales[0]);
  if (fallback) alternates.push({ hreflang: 'x-default', href: fallback });
  return alternates;
}

let read: Promise<SiteTree[]> | undefined;

/** Every tree of the site, the default locale's first. */
export function site(): Promise<SiteTree[]> {
  read ??= (async () => {
    const locales = await siteLocales();
    const types = (await getCollection('quireTypes')).map((entry) => entry.data as unknown as ContentTypeSummary);
    const entries = (await getCollection('quireRows')).map((entry) => entry.data as unknown as RowEntry);
    const typeOf = (table: string) => types.find((candidate) => candidate.table === table) as ContentTypeSummary;
    // Each row's page name per locale (its slug may differ), by `<table>/<row id>`.
    const names = new Map<string, Map<string, string>>();
    for (const locale of locales) {
      const named = new Map<string, string>();
      for (const entry of entries) {
        named.set(
          `${entry.table}/${entry.row.id}`,
          pageName(typeOf(entry.table), inLocale(typeOf(entry.table), entry.row, locale).row),
        );
      }
      names.set(locale.code, named);
    }
    const rowPathIn = (locale: SiteLocale, table: string, id: string) => {
      const page = names.get(locale.code)?.get(`${table}/${id}`);
      return page === undefined ? undefined : pagePath(typeOf(table), page, locale.prefix);
    };

    return locales.map((locale) => {
      const rowPaths: Record<string, string> = {};
      const titles = new Map<string, string>();
      const read = entries.map((entry) => {
        const type = typeOf(entry.table);
        const { row, fallbacks } = inLocale(type, entry.row, locale);
        const path = rowPathIn(locale, type.table, row.id) as string;
        rowPaths[`${type.table}/${row.id}`] = path;
        rowPaths[`${type.slug}/${row.id}`] = path;
        titles.set(`${type.table}/${row.id}`, rowTitle(type, row));
        return { entry, type, row, fallbacks, path };
      });
      const siteTypes = types.map((type) => {
        const relations = type.columns.filter((column) => column.type === 'relation');
        const pages = read
          .filter((item) => item.type === type)
          .map(({ entry, row, fallbacks, path }): SitePage => {
            const links: Record<string, string | null> = {};
            for (const column of relations) {
              const value = row[column.name] as RelationValue | null;
              const target = types.find((candidate) => matches(candidate, column.target ?? ''));
              const key = value && target ? `${target.table}/${value.id}` : '';
              links[column.name] = rowPaths[key] ?? null;
              // The related row's title as this locale reads it, when the site builds it.
              const title = titles.get(key);
              if (value && title) row[column.name] = { ...value, title };
            }
            return {
              type,
              row,
              page: names.get(locale.code)?.get(`${type.table}/${row.id}`) as string,
              path,
              title: rowTitle(type, row),
              images: entry.images,
              links,
              rowPaths,
              locale,
              fallbacks,
              alternates: alternatesOf(locales, (other) => rowPathIn(other, type.table, row.id)),
            };
          });
        const dated = dateColumn(type);
        if (dated) {
          const when = (page: SitePage) => String(page.row[dated.name] ?? '');
          pages.sort((a, b) => when(b).localeCompare(when(a)));
        } else {
          pages.sort((a, b) => a.title.localeCompare(b.title, locale.lang));
        }
        const alternates = alternatesOf(locales, (other) => typePath(type, other.prefix));
        return { type, path: typePath(type, locale.prefix), pages, locale, alternates };
      });
      const alternates = alternatesOf(locales, (other) => `${other.prefix}/`);
      return { locale, home: `${locale.prefix}/`, types: siteTypes, alternates };
    });
  })();
  return read;
}
