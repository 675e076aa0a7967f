/**
 * The site as its pages see it: each content type with its published rows, each row with its
 * page address, title, image sizes and the addresses of the rows its relations point at.
 */
import { getCollection } from 'astro:content';
import { dateColumn, locale, pagePath, rowTitle, typePath } from './quire-format';
import type { ImageSizes, RowEntry } from './quire-loader';
import { matches } from './quire-source';
import type { ContentRow, ContentTypeSummary, RelationValue } from './quire-types';

/** One row's page. */
export interface SitePage {
  type: ContentTypeSummary;
  row: ContentRow;
  /** The last segment of its address. */
  page: string;
  path: string;
  title: string;
  images: ImageSizes;
  /** For each relation column: the address of the row it points at, or null when the site has no page for it. */
  links: Record<string, string | null>;
  /**
   * The address of every page of the site by `<type>/<row id>` (the type by its table and by its
   * slug), for relations inside blocks and links to rows inside rich text.
   */
  rowPaths: Record<string, string>;
}

/** One content type and its pages, newest first when the type has a date (else by title). */
export interface SiteType {
  type: ContentTypeSummary;
  path: string;
  pages: SitePage[];
}

let read: Promise<SiteType[]> | undefined;

/** Every content type the site builds, with its pages. */
export function site(): Promise<SiteType[]> {
  read ??= (async () => {
    const types = (await getCollection('quireTypes')).map((entry) => entry.data as unknown as ContentTypeSummary);
    const entries = (await getCollection('quireRows')).map((entry) => entry.data as unknown as RowEntry);
    const paths = new Map<string, string>();
    const rowPaths: Record<string, string> = {};
    for (const entry of entries) {
      const type = types.find((candidate) => candidate.table === entry.table) as ContentTypeSummary;
      paths.set(`${entry.table}/${entry.row.id}`, pagePath(type, entry.page));
      rowPaths[`${entry.table}/${entry.row.id}`] = pagePath(type, entry.page);
      rowPaths[`${type.slug}/${entry.row.id}`] = pagePath(type, entry.page);
    }
    return types.map((type) => {
      const relations = type.columns.filter((column) => column.type === 'relation');
      const pages = entries
        .filter((entry) => entry.table === type.table)
        .map(({ row, page, images }) => {
          const links: Record<string, string | null> = {};
          for (const column of relations) {
            const value = row[column.name] as RelationValue | null;
            const target = types.find((candidate) => matches(candidate, column.target ?? ''));
            links[column.name] = value && target ? (paths.get(`${target.table}/${value.id}`) ?? null) : null;
          }
          const path = pagePath(type, page);
          return { type, row, page, path, title: rowTitle(type, row), images, links, rowPaths };
        });
      const dated = dateColumn(type);
      if (dated) {
        const when = (page: SitePage) => String(page.row[dated.name] ?? '');
        pages.sort((a, b) => when(b).localeCompare(when(a)));
      } else {
        pages.sort((a, b) => a.title.localeCompare(b.title, locale));
      }
      return { type, path: typePath(type), pages };
    });
  })();
  return read;
}
