import type { ColumnDescriptor, ContentRow, SeoMeta, WriteBody } from '../../../common/api-contract.js';
import {
  columnForFieldName,
  flatMetaName,
  META_KEYS,
  type MetaKey,
  nestedMetaName,
} from '../../../common/row-fields.js';
import { widgetFor } from './field-registry.js';
import type { FormValue } from './field-types.js';
import { firstStep } from './problem-paths.js';

/** The row form while it is edited. */
export interface FormState {
  values: Readonly<Record<string, FormValue>>;
  /** For derived columns (slugs): whether each still follows its source. */
  following: Readonly<Record<string, boolean>>;
  meta: Readonly<SeoMeta>;
}

const EMPTY_META: SeoMeta = { title: '', description: '', keywords: '' };

/**
 * The form of a row, or of a new row when `row` is null. A new row's derived fields follow their
 * source; a saved row keeps its slug (links to it keep working) unless it has none yet.
 */
export function initialFormState(columns: readonly ColumnDescriptor[], row: ContentRow | null, now: Date): FormState {
  const values: Record<string, FormValue> = {};
  for (const column of columns) {
    const widget = widgetFor(column);
    values[column.name] = row ? widget.fromRow(row[column.name], column) : widget.initial(column, now);
  }
  const following: Record<string, boolean> = {};
  for (const column of columns) {
    const derive = widgetFor(column).derive;
    const source = derive?.sourceOf(column);
    if (!derive || source === undefined) continue;
    following[column.name] = row === null || values[column.name] === '';
    if (following[column.name]) values[column.name] = derive.compute(values[source]);
  }
  const meta = row?.meta ? { ...EMPTY_META, ...row.meta } : EMPTY_META;
  return { values, following, meta };
}

/** The form after the user changed one field: a derived field stops following; its dependents follow. */
export function changeField(
  state: FormState,
  columns: readonly ColumnDescriptor[],
  name: string,
  value: FormValue,
): FormState {
  const values: Record<string, FormValue> = { ...state.values, [name]: value };
  const following = { ...state.following };
  if (name in following) following[name] = false;
  for (const column of columns) {
    const derive = widgetFor(column).derive;
    if (derive && following[column.name] && derive.sourceOf(column) === name) {
      values[column.name] = derive.compute(value);
    }
  }
  return { ...state, values, following };
}

/** The form after "Regenerate": the derived field takes its source's value again and follows it. */
export function regenerateField(state: FormState, columns: readonly ColumnDescriptor[], name: string): FormState {
  const column = columns.find((candidate) => candidate.name === name);
  const derive = column ? widgetFor(column).derive : undefined;
  const source = column && derive?.sourceOf(column);
  if (!column || !derive || source === undefined) return state;
  return {
    ...state,
    values: { ...state.values, [name]: derive.compute(state.values[source]) },
    following: { ...state.following, [name]: true },
  };
}

/** The form after the user changed one SEO member. */
export function changeMeta(state: FormState, key: MetaKey, value: string): FormState {
  return { ...state, meta: { ...state.meta, [key]: value } };
}

const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Names of the columns whose value differs from the saved row's. */
export function changedColumns(state: FormState, saved: FormState, columns: readonly ColumnDescriptor[]): string[] {
  return columns.map((column) => column.name).filter((name) => !same(state.values[name], saved.values[name]));
}

/** Whether the SEO members differ from the saved ones. */
export function metaChanged(state: FormState, saved: FormState): boolean {
  return META_KEYS.some((key) => state.meta[key] !== saved.meta[key]);
}

/** Whether leaving the form would lose edits. */
export function isDirty(state: FormState, saved: FormState, columns: readonly ColumnDescriptor[]): boolean {
  return changedColumns(state, saved, columns).length > 0 || metaChanged(state, saved);
}

function metaBody(meta: SeoMeta): SeoMeta | null {
  return META_KEYS.every((key) => meta[key].trim() === '') ? null : { ...meta };
}

/**
 * The write body of a save. A new row sends every filled-in field; an existing row sends only what
 * changed (fields this editor cannot edit are never sent back altered). A slug that follows its
 * source is left to the server, which makes it unique (`title-2`): left out on create, null on update.
 */
export function buildWriteBody(
  state: FormState,
  saved: FormState,
  columns: readonly ColumnDescriptor[],
  mode: 'create' | 'update',
): WriteBody {
  const body: WriteBody = {};
  const changed = new Set(changedColumns(state, saved, columns));
  for (const column of columns) {
    const widget = widgetFor(column);
    const value = state.values[column.name];
    const follows = state.following[column.name] === true;
    if (mode === 'create') {
      if (follows) continue;
      const sent = widget.toBody(value, column);
      if (sent !== null && sent !== undefined) body[column.name] = sent;
    } else if (changed.has(column.name) && widget.editable(value)) {
      body[column.name] = follows ? null : widget.toBody(value, column);
    }
  }
  if (mode === 'create') {
    const meta = metaBody(state.meta);
    if (meta) body.meta = meta;
  } else if (metaChanged(state, saved)) {
    body.meta = metaBody(state.meta);
  }
  return body;
}

/** Server field problems sorted by where the form shows them. */
export interface PlacedErrors {
  columns: Record<string, string>;
  /** Problems inside a column's value (`sections[2].image`), by column and path relative to it (`[2].image`). */
  inside: Record<string, Record<string, string>>;
  meta: Partial<Record<MetaKey, string>>;
  /** Problems with no field on the form, as sentences. */
  other: string[];
}

/** Places a validation error's `fields` (`title`, `publish_at`, `meta[title]`, `meta_title`...) on the form. */
export function placeFieldErrors(fields: Readonly<Record<string, string>>, columns: readonly ColumnDescriptor[]) {
  const placed: PlacedErrors = { columns: {}, inside: {}, meta: {}, other: [] };
  const names = new Set(columns.map((column) => column.name));
  for (const [key, problem] of Object.entries(fields)) {
    const name = columnForFieldName(key, (column) => names.has(column));
    const member = META_KEYS.find((meta) => key === flatMetaName(meta) || key === nestedMetaName(meta));
    const { step, rest } = firstStep(key);
    if (names.has(name)) placed.columns[name] = problem;
    else if (member) placed.meta[member] = problem;
    else if (rest !== '' && names.has(step)) placed.inside[step] = { ...placed.inside[step], [rest]: problem };
    else placed.other.push(`${key} ${problem}`);
  }
  return placed;
}
