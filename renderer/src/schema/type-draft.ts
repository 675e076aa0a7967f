import type {
  ColumnChange,
  ColumnDescriptor,
  ColumnType,
  ContentTypeKind,
  ContentTypeSummary,
  CreateContentTypeRequest,
  UpdateContentTypeRequest,
} from '../../../common/api-contract.js';
import type { FieldCondition } from '../../../common/field-conditions.js';
import { LOCALIZABLE_COLUMN_TYPES } from '../../../common/locale-rules.js';
import { identifierFromSlug, tableFromSlug } from '../../../common/naming-rules.js';
import { slugify } from './slugify.js';

/** One choice of a select field while it is edited; its id follows its text until edited by hand. */
export interface OptionDraft {
  key: string;
  id: string;
  text: string;
  idFollows: boolean;
}

/** One field of a content type while it is edited. */
export interface FieldDraft {
  /** Stable identity while editing (names change). */
  key: string;
  /** The column as saved, or null for a field added in this edit. */
  original: ColumnDescriptor | null;
  name: string;
  /** A new field's name follows its label until edited by hand. */
  nameFollows: boolean;
  label: string;
  type: ColumnType;
  required: boolean;
  /** `slug`: the name of the field it is made from. */
  parent: string;
  /** `select`: its choices. */
  options: OptionDraft[];
  /** `relation`: the slug of the type it points at. */
  target: string;
  /** When the field is shown and required; undefined: always. */
  when: FieldCondition | undefined;
  /** `blocks`: the kinds of block it offers, each with its own fields. */
  blocks: BlockTypeDraft[];
  /** Translatable: one value per locale (sent only for the types that can be, `LOCALIZABLE_COLUMN_TYPES`). */
  localized: boolean;
}

/** One block type of a blocks field while it is edited; its name follows its label until edited by hand. */
export interface BlockTypeDraft {
  key: string;
  name: string;
  nameFollows: boolean;
  label: string;
  fields: FieldDraft[];
}

/** A content type while it is edited. Slug and table follow the title until edited (new types only). */
export interface TypeDraft {
  title: string;
  slug: string;
  slugFollows: boolean;
  table: string;
  tableFollows: boolean;
  /** `single`: the type holds one row, opened as a form straight from the sidebar. */
  kind: ContentTypeKind;
  previewPath: string;
  fields: FieldDraft[];
}

let nextKey = 1;
const newKey = (prefix: string) => `${prefix}${nextKey++}`;

/** A table or column name made from words: `Published at` → `published_at`, as the server would accept. */
export function identifierFrom(text: string): string {
  return identifierFromSlug(slugify(text));
}

/** `base`, or `base_2`, `base_3`... whichever no other field has. */
export function uniqueName(base: string, taken: ReadonlySet<string>): string {
  if (base === '' || !taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}

function optionDrafts(column: ColumnDescriptor): OptionDraft[] {
  return (column.options ?? []).map((option) => ({ key: newKey('o'), ...option, idFollows: false }));
}

function fieldFromColumn(column: ColumnDescriptor): FieldDraft {
  return {
    key: newKey('f'),
    original: column,
    name: column.name,
    nameFollows: false,
    label: column.label,
    type: column.type,
    required: column.required,
    parent: column.parent ?? '',
    options: optionDrafts(column),
    target: column.target ?? '',
    when: column.when,
    localized: column.localized === true,
    blocks: (column.blocks ?? []).map((block) => ({
      key: newKey('b'),
      name: block.name,
      nameFollows: false,
      label: block.label,
      fields: block.columns.map(fieldFromColumn),
    })),
  };
}

/** A blank field of a type, ready to be named. */
export function newField(type: ColumnType = 'text', label = ''): FieldDraft {
  return {
    key: newKey('f'),
    original: null,
    name: identifierFrom(label),
    nameFollows: true,
    label,
    type,
    required: false,
    parent: '',
    options: [],
    target: '',
    when: undefined,
    blocks: [],
    localized: false,
  };
}

/** A new block type with one text field, ready to be named. */
export function newBlockType(label = ''): BlockTypeDraft {
  return { key: newKey('b'), name: identifierFrom(label), nameFollows: true, label, fields: [newField('text')] };
}

/** What a block type's editor changes: its label, its name, or its fields. */
export type BlockTypePatch = Partial<Pick<BlockTypeDraft, 'label' | 'name' | 'fields'>>;

/** The block types after one changed; a following name follows the label, a name edited by hand stops following. */
export function changeBlockType(
  blocks: readonly BlockTypeDraft[],
  key: string,
  patch: BlockTypePatch,
): BlockTypeDraft[] {
  return blocks.map((block) => {
    if (block.key !== key) return block;
    const next = { ...block, ...patch };
    if (patch.name !== undefined) next.nameFollows = false;
    else if (patch.label !== undefined && next.nameFollows) {
      const taken = new Set(blocks.filter((other) => other.key !== key).map((other) => other.name));
      next.name = uniqueName(identifierFrom(patch.label), taken);
    }
    return next;
  });
}

/** The draft of a saved type, or of a new one (which starts with a Title and a Slug made from it). */
export function draftFromType(type: ContentTypeSummary | null): TypeDraft {
  if (type) {
    return {
      title: type.title,
      slug: type.slug,
      slugFollows: false,
      table: type.table,
      tableFollows: false,
      kind: type.type,
      previewPath: type.preview_path ?? '',
      fields: type.columns.map(fieldFromColumn),
    };
  }
  const title = { ...newField('text', 'Title'), required: true };
  const slug = { ...newField('slug', 'Slug'), required: true, parent: 'title' };
  return {
    title: '',
    slug: '',
    slugFollows: true,
    table: '',
    tableFollows: true,
    kind: 'collection',
    previewPath: '',
    fields: [title, slug],
  };
}

/** What the field operations work on: a type's fields, or a block type's. */
export interface FieldList {
  fields: FieldDraft[];
}

/** The draft after the title changed: a following slug and table change with it. */
export function setTitle(draft: TypeDraft, title: string): TypeDraft {
  const slug = draft.slugFollows ? slugify(title) : draft.slug;
  return { ...draft, title, slug, table: draft.tableFollows ? tableFromSlug(slug) : draft.table };
}

/** The draft after the slug was edited by hand: it stops following; a following table follows it. */
export function setSlug(draft: TypeDraft, slug: string): TypeDraft {
  return { ...draft, slug, slugFollows: false, table: draft.tableFollows ? tableFromSlug(slug) : draft.table };
}

/** The draft after the table name was edited by hand (it stops following). */
export function setTable(draft: TypeDraft, table: string): TypeDraft {
  return { ...draft, table, tableFollows: false };
}

/** Slug and table follow the title again. */
export function followTitle(draft: TypeDraft): TypeDraft {
  return setTitle({ ...draft, slugFollows: true, tableFollows: true }, draft.title);
}

const takenNames = (fields: readonly FieldDraft[], except: string) =>
  new Set(fields.filter((field) => field.key !== except).map((field) => field.name));

/** What a type change brings: a select gets a first option row, a slug a source, a relation a target. */
function withTypeDefaults(field: FieldDraft, fields: readonly FieldDraft[], targets: readonly string[]): FieldDraft {
  const next = { ...field };
  if (next.type === 'select' && next.options.length === 0) {
    next.options = [{ key: newKey('o'), id: '', text: '', idFollows: true }];
  }
  if (next.type === 'slug' && next.parent === '') {
    next.parent = fields.find((other) => other.key !== field.key && other.type === 'text' && other.name)?.name ?? '';
  }
  if (next.type === 'relation' && next.target === '') next.target = targets[0] ?? '';
  if (next.type === 'blocks' && next.blocks.length === 0) next.blocks = [newBlockType()];
  return next;
}

/** A change to one field, as the field editor reports it. */
export type FieldPatch = Partial<
  Pick<
    FieldDraft,
    'label' | 'name' | 'type' | 'required' | 'parent' | 'target' | 'options' | 'when' | 'blocks' | 'localized'
  >
>;

/**
 * The draft after one field changed. A following name follows the label; a name edited by hand
 * stops following; slugs made from a renamed field and conditions on it follow the new name; a new
 * type gets its settings.
 * `targets` are the type slugs a new relation may point at (the first is its default).
 */
export function changeField<D extends FieldList>(
  draft: D,
  key: string,
  patch: FieldPatch,
  targets: readonly string[] = [],
): D {
  const before = draft.fields.find((field) => field.key === key);
  if (!before) return draft;
  let field: FieldDraft = { ...before, ...patch };
  if (patch.name !== undefined) field.nameFollows = false;
  else if (patch.label !== undefined && field.nameFollows) {
    field.name = uniqueName(identifierFrom(patch.label), takenNames(draft.fields, key));
  }
  if (patch.type !== undefined && patch.type !== before.type) field = withTypeDefaults(field, draft.fields, targets);
  const renamed = before.name !== field.name && before.name !== '';
  const fields = draft.fields.map((other) => {
    if (other.key === key) return field;
    if (!renamed) return other;
    const moved = other.type === 'slug' && other.parent === before.name ? { ...other, parent: field.name } : other;
    return moved.when?.field === before.name ? { ...moved, when: { ...moved.when, field: field.name } } : moved;
  });
  return { ...draft, fields };
}

/** The draft with a field (a new blank one unless given) at the end. */
export function addField<D extends FieldList>(draft: D, field: FieldDraft = newField()): D {
  return { ...draft, fields: [...draft.fields, field] };
}

/** The draft without a field; slugs made from it lose their source, fields shown on it are shown always. */
export function removeField<D extends FieldList>(draft: D, key: string): D {
  const removed = draft.fields.find((field) => field.key === key);
  const fields = draft.fields
    .filter((field) => field.key !== key)
    .map((field) =>
      removed && field.type === 'slug' && field.parent === removed.name ? { ...field, parent: '' } : field,
    )
    .map((field) => (removed && field.when?.field === removed.name ? { ...field, when: undefined } : field));
  return { ...draft, fields };
}

/** The draft with a field moved up (-1) or down (+1); unchanged at either end. */
export function moveField<D extends FieldList>(draft: D, key: string, delta: -1 | 1): D {
  const from = draft.fields.findIndex((field) => field.key === key);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= draft.fields.length) return draft;
  const fields = [...draft.fields];
  [fields[from], fields[to]] = [fields[to], fields[from]];
  return { ...draft, fields };
}

/** An option list after one option's text changed (a following id follows the text). */
export function changeOptionText(options: readonly OptionDraft[], key: string, text: string): OptionDraft[] {
  return options.map((option) =>
    option.key === key ? { ...option, text, id: option.idFollows ? slugify(text) : option.id } : option,
  );
}

/** An option list after one option's id was edited by hand. */
export function changeOptionId(options: readonly OptionDraft[], key: string, id: string): OptionDraft[] {
  return options.map((option) => (option.key === key ? { ...option, id, idFollows: false } : option));
}

/** An option list with a blank option at the end. */
export function addOption(options: readonly OptionDraft[]): OptionDraft[] {
  return [...options, { key: newKey('o'), id: '', text: '', idFollows: true }];
}

/** The descriptor of a field as it is sent (type-specific members only where they belong). */
export function columnOf(field: FieldDraft): ColumnDescriptor {
  const column: ColumnDescriptor = {
    name: field.name,
    label: field.label.trim(),
    type: field.type,
    required: field.required,
  };
  if (field.type === 'slug') column.parent = field.parent;
  if (field.type === 'select')
    column.options = field.options.map(({ id, text }) => ({ id: id.trim(), text: text.trim() }));
  if (field.type === 'relation') column.target = field.target;
  if (field.when) column.when = field.when;
  if (field.localized && LOCALIZABLE_COLUMN_TYPES.has(field.type)) column.localized = true;
  if (field.type === 'blocks') {
    column.blocks = field.blocks.map((block) => ({
      name: block.name,
      label: block.label.trim(),
      columns: block.fields.map(columnChangeOf),
    }));
  }
  return column;
}

/** A field as a column change: a renamed saved field says which column it was (`from`), inside blocks too. */
function columnChangeOf(field: FieldDraft): ColumnChange {
  const column: ColumnChange = columnOf(field);
  if (field.original && field.original.name !== field.name) column.from = field.original.name;
  return column;
}

/** The column list of a save: renamed saved fields say which column they were (`from`). */
export function columnChanges(draft: TypeDraft): ColumnChange[] {
  return draft.fields.map(columnChangeOf);
}

/** `POST /api/cms-content` for a new type. */
export function createRequest(draft: TypeDraft): CreateContentTypeRequest {
  return {
    title: draft.title.trim(),
    slug: draft.slug,
    table: draft.table,
    type: draft.kind,
    columns: columnChanges(draft),
    preview_path: draft.previewPath.trim() || null,
  };
}

/** `PUT /api/cms-content/:slug` for a saved type. */
export function updateRequest(draft: TypeDraft): UpdateContentTypeRequest {
  return {
    title: draft.title.trim(),
    type: draft.kind,
    columns: columnChanges(draft),
    preview_path: draft.previewPath.trim() || null,
  };
}

/** Whether the draft would change anything if saved. */
export function isDraftDirty(draft: TypeDraft, saved: TypeDraft): boolean {
  const shape = (value: TypeDraft) =>
    JSON.stringify([value.title, value.slug, value.table, value.kind, value.previewPath, columnChanges(value)]);
  return shape(draft) !== shape(saved);
}

/** One thing a draft changes against the type it was opened from, as a note names it. */
export type DraftChange =
  | { part: 'title' | 'kind' | 'previewPath' | 'order' }
  | { part: 'field'; change: 'added' | 'removed' | 'changed'; label: string };

/**
 * What `draft` changes against `base` (the draft of the type as it was opened): its title, its
 * preview path, fields added, removed or changed (by their label), and the fields' order.
 */
export function draftChanges(draft: TypeDraft, base: TypeDraft): DraftChange[] {
  const changes: DraftChange[] = [];
  if (draft.title.trim() !== base.title.trim()) changes.push({ part: 'title' });
  if (draft.kind !== base.kind) changes.push({ part: 'kind' });
  if (draft.previewPath.trim() !== base.previewPath.trim()) changes.push({ part: 'previewPath' });
  const label = (field: FieldDraft) => field.label.trim() || field.name;
  const before = new Map(base.fields.map((field) => [field.key, field]));
  const kept = draft.fields.filter((field) => before.has(field.key));
  for (const field of draft.fields) {
    const was = before.get(field.key);
    if (!was) changes.push({ part: 'field', change: 'added', label: label(field) });
    else if (JSON.stringify(columnOf(field)) !== JSON.stringify(columnOf(was)))
      changes.push({ part: 'field', change: 'changed', label: label(field) });
  }
  const present = new Set(draft.fields.map((field) => field.key));
  for (const field of base.fields)
    if (!present.has(field.key)) changes.push({ part: 'field', change: 'removed', label: label(field) });
  const keptOrder = base.fields.filter((field) => present.has(field.key)).map((field) => field.key);
  if (kept.some((field, index) => field.key !== keptOrder[index])) changes.push({ part: 'order' });
  return changes;
}

/**
 * `mine` (edited from `base`) re-applied over `theirs` (the type as someone else saved it since):
 * my title and preview path where I changed them, my version of each field I changed that theirs
 * still has under the name I opened, my removals, my order of the fields we both have where I
 * reordered them (theirs' new fields keep their places), and my new fields at the end. What I did
 * not touch stays theirs.
 */
export function reapplyDraft(mine: TypeDraft, base: TypeDraft, theirs: TypeDraft): TypeDraft {
  const before = new Map(base.fields.map((field) => [field.key, field]));
  const savedName = (field: FieldDraft) => field.original?.name;
  const changed = new Map<string, FieldDraft>();
  for (const field of mine.fields) {
    const was = before.get(field.key);
    const name = was && savedName(was);
    if (name && JSON.stringify(columnOf(field)) !== JSON.stringify(columnOf(was))) changed.set(name, field);
  }
  const kept = new Set(mine.fields.map((field) => field.key));
  const removed = new Set(
    base.fields.filter((field) => !kept.has(field.key)).flatMap((field) => savedName(field) ?? []),
  );
  let fields = theirs.fields
    .filter((field) => !removed.has(savedName(field) ?? ''))
    .map((field) => {
      const edit = changed.get(savedName(field) ?? '');
      return edit ? { ...edit, key: field.key, original: field.original } : field;
    });
  if (draftChanges(mine, base).some((change) => change.part === 'order')) {
    // My order of the fields I opened, by their saved names; the places of those fields in theirs
    // are filled in that order.
    const rank = new Map(
      mine.fields
        .flatMap((field) => {
          const name = before.get(field.key)?.original?.name;
          return name ? [name] : [];
        })
        .map((name, index) => [name, index]),
    );
    const ranked = (field: FieldDraft) => rank.get(savedName(field) ?? '');
    const mineFirst = fields.filter((field) => ranked(field) !== undefined);
    mineFirst.sort((a, b) => (ranked(a) ?? 0) - (ranked(b) ?? 0));
    let next = 0;
    fields = fields.map((field) => (ranked(field) === undefined ? field : mineFirst[next++]));
  }
  return {
    ...theirs,
    title: mine.title.trim() !== base.title.trim() ? mine.title : theirs.title,
    kind: mine.kind !== base.kind ? mine.kind : theirs.kind,
    previewPath: mine.previewPath.trim() !== base.previewPath.trim() ? mine.previewPath : theirs.previewPath,
    fields: [...fields, ...mine.fields.filter((field) => !field.original)],
  };
}
