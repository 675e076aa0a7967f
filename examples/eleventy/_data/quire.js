/**
 * Global data `quire`: one tree of pages per locale of the site (`quire.trees`, the default
 * locale's at `/`, each other's at `/<code>/`: quire-locales.js), each with the content types the
 * site builds and their published rows read in its locale as pages (`quire.lists`, the collections
 * of every tree, get an index page), and every page in one list (`quire.pages`) for the
 * page-per-row template (a single type's one row is at its type's address). A page has its type,
 * its row, its address and title, how to show the images it shows (inside its blocks too;
 * quire-images.js), the addresses of the rows its relations point at, the address of every page of
 * its tree by `<type>/<row id>` (`rowPaths`, the type by table and by slug, for relations inside
 * blocks and row links in rich text), its tree's locale, the fields shown from another locale
 * (`fallbacks`), the same page in every tree (`alternates`, for `hreflang`; none with one locale),
 * and the template that lays it out: src/_includes/overrides/<table>.njk when that file exists,
 * else src/_includes/row-page.njk.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dateColumn, imagePaths, isSingle, pageName, pagePath, rowTitle, typePath } from '../quire-format.js';
import { quireImage } from '../quire-images.js';
import { inLocale, siteLocales } from '../quire-locales.js';
import { contentTypes, matches, publishedRows, sourceName } from '../quire-source.js';

const includes = fileURLToPath(new URL('../src/_includes/', import.meta.url));

/** The template of a type's pages. */
const templateOf = (type) =>
  existsSync(`${includes}overrides/${type.table}.njk`) ? `overrides/${type.table}.njk` : 'row-page.njk';

/** The same page in every tree, and the default tree's as `x-default`; none with one locale. */
function alternatesOf(locales, pathIn) {
  if (locales.length < 2) return [];
  const alternates = [];
  for (const locale of locales) {
    const href = pathIn(locale);
    if (href) alternates.push({ hreflang: locale.lang, href });
  }
  const fallback = pathIn(locales[0]);
  if (fallback) alternates.push({ hreflang: 'x-default', href: fallback });
  return alternates;
}

export default async function () {
  const locales = await siteLocales();
  const types = await contentTypes();
  const shown = new Map();
  const imageOf = (path, layout) => {
    if (!shown.has(path)) shown.set(path, quireImage(path, layout));
    return shown.get(path);
  };
  const read = [];
  for (const type of types) {
    for (const row of await publishedRows(type)) {
      const images = {};
      for (const path of imagePaths(type.columns, row)) {
        const image = await imageOf(path, row.media?.[path]);
        if (image) images[path] = image;
      }
      read.push({ type, row, images });
    }
  }
  // Each row's address in each tree (its slug may differ per locale), by `<table>/<row id>`.
  const paths = new Map(locales.map((locale) => [locale.code, new Map()]));
  for (const locale of locales) {
    for (const { type, row } of read) {
      const page = pageName(type, inLocale(type, row, locale).row);
      paths.get(locale.code).set(`${type.table}/${row.id}`, { page, path: pagePath(type, page, locale.prefix) });
    }
  }
  const pathIn = (locale, key) => paths.get(locale.code).get(key)?.path;

  const trees = locales.map((locale) => {
    const rowPaths = {};
    const titles = new Map();
    const pages = read.map(({ type, row: stored, images }) => {
      const key = `${type.table}/${stored.id}`;
      const { row, fallbacks } = inLocale(type, stored, locale);
      const { page, path } = paths.get(locale.code).get(key);
      rowPaths[key] = path;
      rowPaths[`${type.slug}/${row.id}`] = path;
      const title = rowTitle(type, row);
      titles.set(key, title);
      const alternates = alternatesOf(locales, (other) => pathIn(other, key));
      return {
        type,
        row,
        page,
        path,
        title,
        images,
        links: {},
        rowPaths,
        locale,
        fallbacks,
        alternates,
        template: templateOf(type),
      };
    });
    const sections = types.map((type) => {
      const own = pages.filter((entry) => entry.type === type);
      const dated = dateColumn(type);
      if (dated) {
        const when = (entry) => String(entry.row[dated.name] ?? '');
        own.sort((a, b) => when(b).localeCompare(when(a)));
      } else {
        own.sort((a, b) => a.title.localeCompare(b.title, locale.lang));
      }
      const alternates = alternatesOf(locales, (other) => typePath(type, other.prefix));
      return { type, path: typePath(type, locale.prefix), pages: own, locale, alternates };
    });
    // Relations link to the related row's page in this tree, titled as this locale reads it.
    for (const { type, pages: own } of sections) {
      for (const column of type.columns.filter((candidate) => candidate.type === 'relation')) {
        const target = types.find((candidate) => matches(candidate, column.target ?? ''));
        for (const entry of own) {
          const value = entry.row[column.name];
          const key = value && target ? `${target.table}/${value.id}` : '';
          entry.links[column.name] = rowPaths[key] ?? null;
          if (titles.has(key)) entry.row[column.name] = { ...value, title: titles.get(key) };
        }
      }
    }
    const alternates = alternatesOf(locales, (other) => `${other.prefix}/`);
    return { locale, home: `${locale.prefix}/`, types: sections, alternates };
  });
  const sections = trees.flatMap((tree) => tree.types);
  return {
    source: sourceName,
    trees,
    lists: sections.filter((section) => !isSingle(section.type)),
    pages: sections.flatMap((section) => section.pages),
  };
}
