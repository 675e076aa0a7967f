import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { resolutionOrder } from '../../common/locale-rules.js';
import { localeColumnName, missingColumnName } from '../db/queries/internal-names.js';
import {
  isEmptyStored,
  localeStorageColumns,
  localizedColumnsOf,
  type OwnValues,
  otherLocales,
  ownValuesOf,
  storedFromOwn,
} from './localized-values.js';

/**
 * How a content table's locale storage columns follow a change of its columns (a type change) or
 * of the site's locales (a locale added, removed, a chain or the default changed): which stored
 * columns are renamed, added and dropped, and how each row is stored again. Rows keep every
 * locale's own values: they are read as the table stored them before (`ownValuesOf` under the old
 * document and columns) and stored under the new ones (`storedFromOwn`). Pure: the SQL is in
 * server/db/queries/locale-columns.ts.
 */

/** A table's columns under the site's locales: what its locale storage columns follow from. */
export interface LocaleStorageState {
  document: LocalesDocument;
  columns: readonly ColumnDescriptor[];
}

/** A column renamed by a type change. */
export interface ColumnRename {
  from: string;
  to: string;
}

/**
 * What a change does to a table's locale storage columns, in the order it runs: `renames` (with
 * the renamed columns themselves), `adds`, every row stored again from `reads` (when `restore`),
 * then `drops` (the values they held were read first: a new default's values move into its column).
 */
export interface LocaleStoragePlan {
  renames: ColumnRename[];
  adds: string[];
  drops: string[];
  /** The columns a row is read with to store it again, named as after the renames. */
  reads: string[];
  /** Whether rows are stored again (a change that leaves what they resolve to as it was has none). */
  restore: boolean;
}

/** Plans how `before`'s locale storage columns become `after`'s, where `renames` renamed columns. */
export function localeStoragePlan(
  before: LocaleStorageState,
  after: LocaleStorageState,
  renames: readonly ColumnRename[] = [],
): LocaleStoragePlan {
  const renamed = renamer(renames);
  const localizedAfter = new Set(localizedColumnsOf(after.columns).map((column) => column.name));
  const stayLocalized = localizedColumnsOf(before.columns).filter((column) => localizedAfter.has(renamed(column.name)));
  const others = new Set(otherLocales(after.document));
  const storageRenames: ColumnRename[] = [];
  for (const column of stayLocalized) {
    const to = renamed(column.name);
    if (to === column.name) continue;
    for (const locale of otherLocales(before.document)) {
      if (others.has(locale)) {
        storageRenames.push({ from: localeColumnName(column.name, locale), to: localeColumnName(to, locale) });
      }
    }
  }
  const movedTo = new Map(storageRenames.map((rename) => [rename.from, rename.to]));
  const had = localeStorageColumns(before.document, before.columns).map(({ name }) => movedTo.get(name) ?? name);
  const wanted = localeStorageColumns(after.document, after.columns).map(({ name }) => name);
  const adds = wanted.filter((name) => !had.includes(name));
  const drops = had.filter((name) => !wanted.includes(name));
  const restore =
    wanted.length > 0 &&
    (adds.length > 0 ||
      drops.length > 0 ||
      storageRenames.length > 0 ||
      stayLocalized.length !== localizedAfter.size ||
      !sameResolution(before.document, after.document));
  return { renames: storageRenames, adds, drops, reads: restore ? readsOf(before, after, renames) : [], restore };
}

/**
 * The stored columns of a row (read with the plan's `reads`) that change when it is stored again
 * under `after`: every locale's own values as `before` stored them, localized columns newly so
 * holding their value as the default locale's. Columns whose stored value stays are left out.
 */
export function restoredRow(
  before: LocaleStorageState,
  after: LocaleStorageState,
  renames: readonly ColumnRename[],
  row: Record<string, unknown>,
): Record<string, unknown> {
  const own = ownValuesThrough(before, after, renames, row);
  const stored = storedFromOwn(after.document, after.columns, own);
  const changed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(stored)) {
    const now = row[name] ?? null;
    // An empty value stays as written ('' or '[]' rather than null) where nothing else changes it.
    if (now === value || (value === null && isEmptyStored(now))) continue;
    changed[name] = value;
  }
  return changed;
}

/** Every locale's own values of a row under `before`, keyed by the columns' names after `renames`. */
export function ownValuesThrough(
  before: LocaleStorageState,
  after: LocaleStorageState,
  renames: readonly ColumnRename[],
  row: Record<string, unknown>,
): OwnValues {
  const renamed = renamer(renames);
  const localizedBefore = localizedColumnsOf(before.columns);
  // The row as `before` named its columns, so its missing JSON (keyed by the old names) reads as written.
  const shadow: Record<string, unknown> = {};
  for (const column of localizedBefore) {
    const to = renamed(column.name);
    shadow[column.name] = row[to];
    for (const locale of otherLocales(before.document)) {
      shadow[localeColumnName(column.name, locale)] = row[localeColumnName(to, locale)];
    }
  }
  for (const { code } of before.document.locales) shadow[missingColumnName(code)] = row[missingColumnName(code)];
  const own: OwnValues = {};
  for (const [locale, values] of Object.entries(ownValuesOf(before.document, localizedBefore, shadow))) {
    own[locale] = Object.fromEntries(Object.entries(values).map(([name, value]) => [renamed(name), value]));
  }
  const wasLocalized = new Set(localizedBefore.map((column) => renamed(column.name)));
  own[before.document.default] ??= {};
  const defaults = own[before.document.default];
  for (const column of localizedColumnsOf(after.columns)) {
    if (wasLocalized.has(column.name)) continue;
    const value = row[column.name] ?? null;
    defaults[column.name] = isEmptyStored(value) ? null : value;
  }
  return own;
}

/**
 * How many own values (not empty, not a fallback) each of `locales` holds in a row stored under
 * `state`, among `columns` (the localized columns of `state` by default).
 */
export function ownValueCounts(
  state: LocaleStorageState,
  row: Record<string, unknown>,
  locales: readonly string[],
  columns: readonly string[] = localizedColumnsOf(state.columns).map((column) => column.name),
): Record<string, number> {
  const own = ownValuesOf(state.document, localizedColumnsOf(state.columns), row);
  const counts: Record<string, number> = {};
  for (const locale of locales) {
    counts[locale] = columns.filter((name) => !isEmptyStored(own[locale]?.[name])).length;
  }
  return counts;
}

/** The stored columns `ownValueCounts` reads of a row stored under `state`. */
export function ownValueReads(state: LocaleStorageState): string[] {
  const localized = localizedColumnsOf(state.columns);
  if (localized.length === 0) return [];
  return [
    ...localized.map((column) => column.name),
    ...localeStorageColumns(state.document, state.columns).map(({ name }) => name),
  ];
}

/** The columns a row is read with to be stored again (named as after the renames). */
function readsOf(before: LocaleStorageState, after: LocaleStorageState, renames: readonly ColumnRename[]): string[] {
  const renamed = renamer(renames);
  const kept = new Set(after.columns.map((column) => column.name));
  const reads = new Set<string>();
  const localizedBefore = localizedColumnsOf(before.columns).filter((column) => kept.has(renamed(column.name)));
  for (const column of localizedBefore) {
    const to = renamed(column.name);
    reads.add(to);
    for (const locale of otherLocales(before.document)) reads.add(localeColumnName(to, locale));
  }
  if (localizedColumnsOf(before.columns).length > 0) {
    for (const { code } of before.document.locales) reads.add(missingColumnName(code));
  }
  for (const column of localizedColumnsOf(after.columns)) reads.add(column.name);
  // The stored columns `after` writes, to leave out those whose value stays.
  for (const { name } of localeStorageColumns(after.document, after.columns)) reads.add(name);
  return [...reads];
}

/** Whether two documents resolve every locale alike (same default, locales and chains; labels aside). */
function sameResolution(a: LocalesDocument, b: LocalesDocument): boolean {
  if (a.default !== b.default || a.locales.length !== b.locales.length) return false;
  return a.locales.every(
    (locale, index) =>
      locale.code === b.locales[index].code &&
      resolutionOrder(a, locale.code).join() === resolutionOrder(b, locale.code).join(),
  );
}

function renamer(renames: readonly ColumnRename[]): (name: string) => string {
  const map = new Map(renames.map((rename) => [rename.from, rename.to]));
  return (name) => map.get(name) ?? name;
}
