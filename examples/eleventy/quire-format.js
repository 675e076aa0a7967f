/**
 * How the site shows a row's values: Markdown as HTML, dates in the page's language (its tree's:
 * see quire-locales.js), which column is the title, where each page lives. QUIRE_TIME_ZONE sets the
 * zone datetimes are shown in (default UTC: Quire stores wall-clock times).
 */
import MarkdownIt from 'markdown-it';

/** The site's name, on every page. */
export const siteTitle = process.env.QUIRE_SITE_TITLE || 'Quire site';
const timeZone = process.env.QUIRE_TIME_ZONE || 'UTC';

// markdown-it with `html: false` shows raw HTML as text and refuses javascript: and similar links,
// so an editor's Markdown cannot put a script on the site and no sanitizer is needed.
const markdown = new MarkdownIt({ html: false });

/** A Markdown text as safe HTML. */
export const renderMarkdown = (source) => markdown.render(String(source ?? ''));

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/;
const formats = new Map();

/** The formats of a language, made once. */
function formatsOf(lang) {
  if (!formats.has(lang)) {
    formats.set(lang, {
      date: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }),
      datetime: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone }),
      number: new Intl.NumberFormat(lang),
    });
  }
  return formats.get(lang);
}

/** A `YYYY-MM-DD` date (or the date of a datetime) in a language; other text as it is. */
export function formatDate(value, lang) {
  const parts = DATE.exec(String(value));
  return parts ? formatsOf(lang).date.format(Date.UTC(+parts[1], +parts[2] - 1, +parts[3])) : value;
}

/** A `YYYY-MM-DD HH:MM:SS` datetime in a language; other text as it is. */
export function formatDatetime(value, lang) {
  const parts = DATE.exec(String(value));
  if (!parts) return value;
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = parts;
  return formatsOf(lang).datetime.format(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
}

/** The machine-readable form of a date or datetime, for `<time datetime>`. */
export const isoDate = (value) => String(value).replace(' ', 'T');

/** A number in a language (`1,234.5`, `1 234,5`). */
export const formatNumber = (value, lang) => formatsOf(lang).number.format(value);

/** Long text as paragraphs: a blank line starts a new one. */
export const paragraphs = (value) => String(value).split(/\n{2,}/);

/** A row's title: its title column, else (a single type's row) the type's title, else its id. */
export function rowTitle(type, row) {
  const title = type.title_column ? row[type.title_column] : null;
  if (typeof title === 'string' && title !== '') return title;
  return isSingle(type) ? type.title : row.id;
}

/** The column a type's rows are dated by (its first date or datetime column), or undefined. */
export const dateColumn = (type) => type.columns.find((column) => column.type === 'date' || column.type === 'datetime');

/** The text column that describes an image column's picture (`photo_alt` for `photo`), if there is one. */
export const altColumn = (type, image) =>
  type.columns.find((column) => column.name === `${image}_alt` && column.type === 'text');

/**
 * An image's alt text: its `<column>_alt` column, else `described` (the media library's alt text
 * for the file), else the row's title.
 */
export function imageAlt(type, row, image, described = '') {
  const alt = altColumn(type, image);
  const text = alt ? row[alt.name] : null;
  return typeof text === 'string' && text !== '' ? text : described || rowTitle(type, row);
}

/** Columns shown as a block of their own, in column order; the others are listed as facts. */
export const isBlock = (column) => ['markdown', 'richtext', 'textarea', 'image', 'blocks'].includes(column.type);

/** The block type of a `blocks` column that a block names (`{ name, label, columns }`), or undefined. */
export const blockType = (column, block) => (column.blocks ?? []).find((candidate) => candidate.name === block.type);

/** A block's columns that have a value, in column order. */
export const blockColumns = (type, block) => type.columns.filter((column) => !isEmpty(block[column.name]));

/**
 * The upload paths the image columns of a row (or a block) show, those inside its blocks too; a
 * localized image column's value in every locale.
 */
export function imagePaths(columns, values) {
  const paths = [];
  for (const column of columns) {
    const value = values[column.name];
    const shown = column.localized && value !== null && typeof value === 'object' ? Object.values(value) : [value];
    for (const path of column.type === 'image' ? shown : []) {
      if (typeof path === 'string' && path !== '') paths.push(path);
    }
    if (column.type === 'blocks' && Array.isArray(value)) {
      for (const block of value) {
        const type = blockType(column, block);
        if (type) paths.push(...imagePaths(type.columns, block));
      }
    }
  }
  return paths;
}

// A link tag, and the row a link names: as reads give it (`data-quire-row="<type>/<id>"` beside
// the server's own address for the row) or still in its stored form (`href="quire://row/<type>/<id>"`).
const LINK_TAG = /<a\b([^>]*)>/g;
const ROW_REFERENCE = /\sdata-quire-row="([^"/]+)\/([^"]+)"/;
const STORED_ROW_LINK = /\shref="quire:\/\/row\/([^"/]+)\/([^"]+)"/;
const ROW_LINK_ATTRIBUTES = /\s(?:data-quire-row|href)="[^"]*"/g;

/**
 * A `richtext` value as the page's HTML. The server sanitized it on the way in (an allow-list: no
 * script, handler, style or `javascript:` URL reaches the database), so it is shown as it is; only
 * a link to a row is pointed at that row's page on this site (the server's address for it is its
 * own), or loses its `href` when the site has no page for it.
 */
export const richtextHtml = (html, rowPaths) =>
  String(html ?? '').replace(LINK_TAG, (tag, attributes) => {
    const row = ROW_REFERENCE.exec(attributes) ?? STORED_ROW_LINK.exec(attributes);
    if (!row) return tag;
    const path = rowPaths[`${row[1]}/${row[2]}`];
    return `<a${path ? ` href="${path}"` : ''}${attributes.replace(ROW_LINK_ATTRIBUTES, '')}>`;
  });

/** Whether a type holds one row (site settings, a home page), built as one page at the type's address. */
export const isSingle = (type) => type.type === 'single';

/** Whether a value is empty (nothing to show). */
export const isEmpty = (value) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * The columns a row's page shows: all but the title (the heading), slugs (the address), `status`
 * (every page is published), the alt texts of images (on the images) and those without a value.
 */
export function shownColumns(type, row) {
  const alts = new Set(type.columns.map((column) => (column.type === 'image' ? `${column.name}_alt` : '')));
  return type.columns.filter(
    (column) =>
      column.name !== type.title_column &&
      column.type !== 'slug' &&
      column.name !== 'status' &&
      !(column.type === 'text' && alts.has(column.name)) &&
      !isEmpty(row[column.name]),
  );
}

/** A row's page name (read in the page's locale): its first slug column's value, else its id. */
export function pageName(type, row) {
  const slugColumn = type.columns.find((column) => column.type === 'slug')?.name;
  const slug = slugColumn ? row[slugColumn] : null;
  return typeof slug === 'string' && slug !== '' ? slug : row.id;
}

/** The address of a type's index page in the tree at `prefix` (`''`: the default locale's, `/de`). */
export const typePath = (type, prefix = '') => `${prefix}/${type.table}/`;

/** The address of a row's page: a single type's one row is at the type's own address. */
export const pagePath = (type, page, prefix = '') =>
  isSingle(type) ? typePath(type, prefix) : `${prefix}/${type.table}/${encodeURIComponent(page)}/`;
