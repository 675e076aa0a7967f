/**
 * How the site shows a row's values: Markdown as HTML, dates in the page's language (its tree's:
 * see quire-locales.ts), which column is the title, where each page lives. QUIRE_TIME_ZONE sets the
 * zone datetimes are shown in (default UTC: Quire stores wall-clock times).
 */
import MarkdownIt from 'markdown-it';
import type { ContentRow, ContentTypeSummary, PublishedColumn } from './quire-types';

/** The site's name, on every page. */
export const siteTitle = process.env.QUIRE_SITE_TITLE || 'Quire site';
const timeZone = process.env.QUIRE_TIME_ZONE || 'UTC';

// markdown-it with `html: false` shows raw HTML as text and refuses javascript: and similar links,
// so an editor's Markdown cannot put a script on the site and no sanitizer is needed.
const markdown = new MarkdownIt({ html: false });

/** A Markdown text as safe HTML. */
export const renderMarkdown = (source: string): string => markdown.render(source);

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/;
const formats = new Map<
  string,
  { date: Intl.DateTimeFormat; datetime: Intl.DateTimeFormat; number: Intl.NumberFormat }
>();

/** The formats of a language, made once. */
function formatsOf(lang: string) {
  let made = formats.get(lang);
  if (!made) {
    made = {
      date: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }),
      datetime: new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeStyle: 'short', timeZone }),
      number: new Intl.NumberFormat(lang),
    };
    formats.set(lang, made);
  }
  return made;
}

/** A `YYYY-MM-DD` date (or the date of a datetime) in a language; other text as it is. */
export function formatDate(value: string, lang: string): string {
  const parts = DATE.exec(value);
  return parts ? formatsOf(lang).date.format(Date.UTC(+parts[1], +parts[2] - 1, +parts[3])) : value;
}

/** A `YYYY-MM-DD HH:MM:SS` datetime in a language; other text as it is. */
export function formatDatetime(value: string, lang: string): string {
  const parts = DATE.exec(value);
  if (!parts) return value;
  const [, year, month, day, hour = '0', minute = '0', second = '0'] = parts;
  return formatsOf(lang).datetime.format(Date.UTC(+year, +month - 1, +day, +hour, +minute, +second));
}

/** The machine-readable form of a date or datetime, for `<time datetime>`. */
export const isoDate = (value: string): string => value.replace(' ', 'T');

/** A number in a language (`1,234.5`, `1 234,5`). */
export const formatNumber = (value: number, lang: string): string => formatsOf(lang).number.format(value);

/** A row's title: its title column, else (a single type's row) the type's title, else its id. */
export function rowTitle(type: ContentTypeSummary, row: ContentRow): string {
  const title = type.title_column ? row[type.title_column] : null;
  if (typeof title === 'string' && title !== '') return title;
  return isSingle(type) ? type.title : row.id;
}

/** The column a type's rows are dated by (its first date or datetime column), or undefined. */
export const dateColumn = (type: ContentTypeSummary): PublishedColumn | undefined =>
  type.columns.find((column) => column.type === 'date' || column.type === 'datetime');

/** The text column that describes an image column's picture (`photo_alt` for `photo`), if there is one. */
export const altColumn = (type: ContentTypeSummary, image: string): PublishedColumn | undefined =>
  type.columns.find((column) => column.name === `${image}_alt` && column.type === 'text');

/**
 * An image's alt text: its `<column>_alt` column, else `described` (the media library's alt text
 * for the file), else the row's title.
 */
export function imageAlt(type: ContentTypeSummary, row: ContentRow, image: string, described = ''): string {
  const alt = altColumn(type, image);
  const text = alt ? row[alt.name] : null;
  return typeof text === 'string' && text !== '' ? text : described || rowTitle(type, row);
}

/** Columns shown as a block of their own, in column order; the others are listed as facts. */
export const isBlock = (column: PublishedColumn): boolean =>
  ['markdown', 'richtext', 'textarea', 'image', 'blocks'].includes(column.type);

/** One block type of a `blocks` column: its name, label and its own columns. */
export interface BlockType {
  name: string;
  label: string;
  columns: PublishedColumn[];
}

/** One block of a `blocks` value: its block type's name, its id and its fields. */
export interface BlockValue {
  type: string;
  id: string;
  [field: string]: unknown;
}

/** The block types a `blocks` column offers. */
export const blockTypes = (column: PublishedColumn): BlockType[] =>
  (column as PublishedColumn & { blocks?: BlockType[] }).blocks ?? [];

/** A block's columns that have a value, in column order. */
export const blockColumns = (blockType: BlockType, block: BlockValue): PublishedColumn[] =>
  blockType.columns.filter((column) => !isEmpty(block[column.name]));

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
export const richtextHtml = (html: string, rowPaths: Record<string, string>): string =>
  html.replace(LINK_TAG, (tag: string, attributes: string) => {
    const row = ROW_REFERENCE.exec(attributes) ?? STORED_ROW_LINK.exec(attributes);
    if (!row) return tag;
    const path = rowPaths[`${row[1]}/${row[2]}`];
    return `<a${path ? ` href="${path}"` : ''}${attributes.replace(ROW_LINK_ATTRIBUTES, '')}>`;
  });

/** Whether a type holds one row (site settings, a home page), built as one page at the type's address. */
export const isSingle = (type: ContentTypeSummary): boolean => type.type === 'single';

/**
 * The columns a row's page shows: all but the title (the heading), slugs (the address), `status`
 * (every page is published) and the alt texts of images (on the images).
 */
export function shownColumns(type: ContentTypeSummary): PublishedColumn[] {
  const alts = new Set(type.columns.map((column) => (column.type === 'image' ? `${column.name}_alt` : '')));
  return type.columns.filter(
    (column) =>
      column.name !== type.title_column &&
      column.type !== 'slug' &&
      column.name !== 'status' &&
      !(column.type === 'text' && alts.has(column.name)),
  );
}

/** Whether a value is empty (nothing to show). */
export const isEmpty = (value: unknown): boolean =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** The address of a type's index page in the tree at `prefix` (`''`: the default locale's, `/de`). */
export const typePath = (type: ContentTypeSummary, prefix = ''): string => `${prefix}/${type.table}/`;

/** The address of a row's page: a single type's one row is at the type's own address. */
export const pagePath = (type: ContentTypeSummary, page: string, prefix = ''): string =>
  isSingle(type) ? typePath(type, prefix) : `${prefix}/${type.table}/${encodeURIComponent(page)}/`;
