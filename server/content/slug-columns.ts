import type { ColumnDescriptor, ColumnValue } from '../../common/api-contract.js';
import { hasProblems, noProblems } from '../../common/field-problems.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { resolutionOrder } from '../../common/locale-rules.js';
import { slugWithSuffix } from '../../common/slug-rules.js';
import type { StoredRow } from '../db/repositories/content-repository.js';
import { AppError, validationError } from '../errors/app-error.js';
import { ownValuesOf, valueColumnIn } from '../locales/localized-values.js';
import type { ContentType } from './content-type.js';
import type { RowInput } from './row-input.js';
import { slugify } from './slugs.js';

/** Which slug values are taken; the row being written never counts as taking its own slug. */
export interface SlugLookup {
  /** Whether stored column `column` holds `slug` in another row. */
  isTaken(column: string, slug: string): boolean | Promise<boolean>;
  /** The first free of `base`, `base-2`, `base-3`... in stored column `column`. */
  firstFree(column: string, base: string): string | Promise<string>;
}

/**
 * A write's localized values besides the default locale's (which are in the input's values): the
 * site's locales, and per other locale the values written there (locale -> column -> value, null
 * cleared). `assignSlugs` fills in the slugs it generates for those locales.
 */
export interface LocalizedSlugs {
  document: LocalesDocument;
  localized: Map<string, Map<string, ColumnValue>>;
}

/**
 * Fills in slug columns: a given slug is kept (normalised by its field) and must be free; an absent
 * one is generated from its parent on create, and on update when explicitly cleared. Used by every
 * write and by the bulk import, each with its own way of knowing which slugs are taken.
 *
 * A localized slug is unique per locale among the values reads in that locale find (after
 * fallback), which its unique index per locale holds: a slug written in locale L must be free in L
 * and in every locale whose chain falls back to L, where it may show. In a locale other than the
 * default (`locales`), a given slug is checked so; an absent one is generated from the parent's
 * value written in that locale when the row has no slug of its own there; a cleared one falls back.
 */
export async function assignSlugs(
  type: ContentType,
  input: RowInput,
  current: StoredRow | null,
  lookup: SlugLookup,
  locales?: LocalizedSlugs,
): Promise<Map<string, ColumnValue>> {
  const values = new Map(input.values);
  const problems = noProblems();
  const document = locales?.document;
  for (const column of type.columns) {
    if (column.type !== 'slug') continue;
    const shownIn = (code: string) => columnsShowing(document, column, code);
    const given = values.get(column.name);
    if (typeof given === 'string') {
      await refuseTaken(lookup, column, shownIn(document?.default ?? ''), given);
      continue;
    }
    if (current !== null && !values.has(column.name)) continue;
    const parent = column.parent ?? '';
    const parentValue = values.has(parent) ? values.get(parent) : current?.[parent];
    const base = typeof parentValue === 'string' ? slugify(parentValue) : '';
    if (base === '') {
      if (column.required) problems[column.name] = { code: 'required_slug', source: parent };
      else values.set(column.name, null);
      continue;
    }
    values.set(column.name, await firstFreeIn(lookup, shownIn(document?.default ?? ''), base));
  }
  if (hasProblems(problems)) throw validationError(problems);
  if (locales) await assignLocaleSlugs(type, current, lookup, locales);
  return values;
}

/** The slugs of localized slug columns written in the other locales (see `assignSlugs`). */
async function assignLocaleSlugs(
  type: ContentType,
  current: StoredRow | null,
  lookup: SlugLookup,
  { document, localized }: LocalizedSlugs,
): Promise<void> {
  const slugs = type.columns.filter((column) => column.type === 'slug' && column.localized === true);
  if (slugs.length === 0 || localized.size === 0) return;
  const own = current === null ? null : ownValuesOf(document, type.columns, current);
  for (const [code, written] of localized) {
    if (code === document.default) continue;
    for (const column of slugs) {
      const given = written.get(column.name);
      if (typeof given === 'string') {
        await refuseTaken(lookup, column, columnsShowing(document, column, code), given);
        continue;
      }
      // Cleared: the locale falls back again. Kept: the row's own slug there stays.
      if (written.has(column.name) || (own?.[code]?.[column.name] ?? null) !== null) continue;
      const parent = type.columnsByName.get(column.parent ?? '');
      const title = parent?.localized === true ? written.get(parent.name) : undefined;
      const base = typeof title === 'string' ? slugify(title) : '';
      if (base === '') continue;
      written.set(column.name, await firstFreeIn(lookup, columnsShowing(document, column, code), base));
    }
  }
}

/** A stored column of a slug column, and the locale whose values it holds (none for a shared column). */
interface StoredSlugs {
  stored: string;
  locale?: string;
}

/**
 * The stored columns of slug column `column` a value written in locale `code` may show in: for a
 * localized column (`document` given) that locale's, and those of the locales whose fallback chains
 * name it; for a shared one its only column.
 */
function columnsShowing(document: LocalesDocument | undefined, column: ColumnDescriptor, code: string): StoredSlugs[] {
  if (!document || column.localized !== true) return [{ stored: column.name }];
  return document.locales
    .filter((locale) => resolutionOrder(document, locale.code).includes(code))
    .map((locale) => ({ stored: valueColumnIn(document, column, locale.code), locale: locale.code }));
}

/**
 * A 409 `taken` naming the field when another row holds `slug` in any of `columns`, and for a
 * localized column the locale it is held in: the same slug may be free in the locale written.
 */
async function refuseTaken(
  lookup: SlugLookup,
  column: ColumnDescriptor,
  columns: readonly StoredSlugs[],
  slug: string,
): Promise<void> {
  for (const { stored, locale } of columns) {
    if (await lookup.isTaken(stored, slug)) {
      const where = locale === undefined ? '' : ` in ${locale}`;
      throw new AppError(
        'conflict',
        `The ${column.name} ${JSON.stringify(slug)} is already used by another row${where}`,
        {
          [column.name]: locale === undefined ? { code: 'taken' } : { code: 'taken', locale },
        },
      );
    }
  }
}

/** The first of `base`, `base-2`, `base-3`... free in every one of the `shown` columns. */
async function firstFreeIn(lookup: SlugLookup, shown: readonly StoredSlugs[], base: string): Promise<string> {
  const [first, ...others] = shown.map(({ stored }) => stored);
  let slug = await lookup.firstFree(first ?? '', base);
  if (others.length === 0) return slug;
  const suffix = slug === base ? 1 : Number(slug.slice(slug.lastIndexOf('-') + 1));
  for (let n = suffix; ; n++) {
    slug = slugWithSuffix(base, n);
    if (n > suffix && (await lookup.isTaken(first ?? '', slug))) continue;
    let free = true;
    for (const stored of others) {
      if (await lookup.isTaken(stored, slug)) {
        free = false;
        break;
      }
    }
    if (free) return slug;
  }
}
