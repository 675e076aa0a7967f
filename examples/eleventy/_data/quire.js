/**
 * Global data `quire`: the content types the site builds, each with its published rows as pages
 * (`quire.types`; `quire.lists`, the collections, get an index page), and every page in one list
 * (`quire.pages`) for the page-per-row template (a single type's one row is at its type's address).
 * A page has its type, its row, its address and title, how to show the images it shows (inside its
 * blocks too; quire-images.js), the addresses of the rows its relations point at, the address of every
 * page of the site by `<type>/<row id>` (`rowPaths`, the type by table and by slug, for relations
 * inside blocks and row links in rich text), and the template that lays it out:
 * src/_includes/overrides/<table>.njk when that file exists, else src/_includes/row-page.njk.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dateColumn, imagePaths, isSingle, locale, pageName, pagePath, rowTitle, typePath } from '../quire-format.js';
import { quireImage } from '../quire-images.js';
import { contentTypes, matches, publishedRows, sourceName } from '../quire-source.js';

const includes = fileURLToPath(new URL('../src/_includes/', import.meta.url));

/** The template of a type's pages. */
const templateOf = (type) =>
  existsSync(`${includes}overrides/${type.table}.njk`) ? `overrides/${type.table}.njk` : 'row-page.njk';

export default async function () {
  const types = await contentTypes();
  const shown = new Map();
  const imageOf = (path, layout) => {
    if (!shown.has(path)) shown.set(path, quireImage(path, layout));
    return shown.get(path);
  };

  const sections = [];
  const paths = new Map();
  const rowPaths = {};
  for (const type of types) {
    const pages = [];
    for (const row of await publishedRows(type)) {
      const page = pageName(type, row);
      const images = {};
      for (const path of imagePaths(type.columns, row)) {
        const image = await imageOf(path, row.media?.[path]);
        if (image) images[path] = image;
      }
      const path = pagePath(type, page);
      paths.set(`${type.table}/${row.id}`, path);
      rowPaths[`${type.table}/${row.id}`] = path;
      rowPaths[`${type.slug}/${row.id}`] = path;
      const title = rowTitle(type, row);
      pages.push({ type, row, page, path, title, images, links: {}, rowPaths, template: templateOf(type) });
    }
    const dated = dateColumn(type);
    if (dated) {
      const when = (entry) => String(entry.row[dated.name] ?? '');
      pages.sort((a, b) => when(b).localeCompare(when(a)));
    } else {
      pages.sort((a, b) => a.title.localeCompare(b.title, locale));
    }
    sections.push({ type, path: typePath(type), pages });
  }

  // Relations link to the related row's page when the site has one.
  for (const { type, pages } of sections) {
    for (const column of type.columns.filter((candidate) => candidate.type === 'relation')) {
      const target = types.find((candidate) => matches(candidate, column.target ?? ''));
      for (const entry of pages) {
        const value = entry.row[column.name];
        entry.links[column.name] = value && target ? (paths.get(`${target.table}/${value.id}`) ?? null) : null;
      }
    }
  }
  return {
    source: sourceName,
    types: sections,
    lists: sections.filter((section) => !isSingle(section.type)),
    pages: sections.flatMap((section) => section.pages),
  };
}
