import type { ColumnChange, ColumnDescriptor } from '../../common/api-contract.js';
import { convertsValues, typeChangeAllowed } from '../../common/column-type-changes.js';
import { type FieldProblems, hasProblems, noProblems } from '../../common/field-problems.js';
import type { ContentRepository, StoredRow } from '../db/repositories/content-repository.js';
import { validationError } from '../errors/app-error.js';

/** A rename of a block type's column: where (the column path, block type names) and from/to. */
export interface BlockColumnRename {
  /** Block type names from the top column's block types down: `['gallery', 'photo']`. */
  path: string[];
  from: string;
  to: string;
}

/** What changing a blocks column's block types does to its values: block columns renamed and dropped. */
export interface BlockChange {
  renames: BlockColumnRename[];
  /** What a change log names as dropped: `sections.hero.cta_label`, or `sections.quote` for a block type. */
  dropped: string[];
}

/**
 * Plans the change of a blocks column's block types by the same rules as a content type's
 * columns: a block column kept by name or renamed with `from`, the rest dropped; a type change
 * refused, a rename of an unknown column refused. Problems go to `problems` under `at`
 * (`columns[1].blocks[0].columns[2]`). Block types are matched by name.
 */
export function planBlockChange(
  old: ColumnDescriptor,
  next: ColumnChange,
  at: string,
  problems: FieldProblems,
): BlockChange {
  const change: BlockChange = { renames: [], dropped: [] };
  planInto(old, next, at, next.name, [], problems, change);
  return change;
}

function planInto(
  old: ColumnDescriptor,
  next: ColumnDescriptor,
  at: string,
  label: string,
  path: string[],
  problems: FieldProblems,
  change: BlockChange,
): void {
  const oldTypes = new Map((old.blocks ?? []).map((block) => [block.name, block]));
  const keptTypes = new Set<string>();
  (next.blocks ?? []).forEach((blockType, typeIndex) => {
    const previous = oldTypes.get(blockType.name);
    if (!previous) return;
    keptTypes.add(previous.name);
    const oldColumns = new Map(previous.columns.map((column) => [column.name, column]));
    const kept = new Set<string>();
    blockType.columns.forEach((column, index) => {
      const place = `${at}.blocks[${typeIndex}].columns[${index}]`;
      const { from } = column as ColumnChange;
      const source = oldColumns.get(from ?? column.name);
      if (from !== undefined && !source) {
        problems[place] = { code: 'renames_unknown', from, table: blockType.name };
        return;
      }
      if (!source) return;
      if (kept.has(source.name)) problems[place] = { code: 'taken_over', column: source.name };
      kept.add(source.name);
      // Values inside blocks are kept as they are: a change that would convert them is refused.
      if (!typeChangeAllowed(source.type, column.type) || convertsValues(source.type, column.type)) {
        problems[place] = { code: 'type_change', from: source.type, to: column.type };
        return;
      }
      if (source.name !== column.name) {
        change.renames.push({ path: [...path, blockType.name], from: source.name, to: column.name });
      }
      if (column.type === 'blocks') {
        planInto(
          source,
          column,
          place,
          `${label}.${blockType.name}.${column.name}`,
          [...path, blockType.name, column.name],
          problems,
          change,
        );
      }
    });
    for (const name of oldColumns.keys())
      if (!kept.has(name)) change.dropped.push(`${label}.${blockType.name}.${name}`);
  });
  for (const name of oldTypes.keys()) if (!keptTypes.has(name)) change.dropped.push(`${label}.${name}`);
}

/** A column descriptor as stored: without the `from` of its block columns, at any depth. */
export function withoutBlockRenames<T extends ColumnDescriptor>(column: T): T {
  if (column.type !== 'blocks' || !column.blocks) return column;
  return {
    ...column,
    blocks: column.blocks.map((blockType) => ({
      ...blockType,
      columns: blockType.columns.map((inner) => {
        const { from: _from, ...rest } = inner as ColumnChange;
        return withoutBlockRenames(rest);
      }),
    })),
  };
}

/**
 * A stored blocks value (JSON text) with its block columns renamed: each rename applies to the
 * blocks of its block type at its place. Returns null when nothing changes.
 */
export function renameInStoredBlocks(stored: unknown, renames: readonly BlockColumnRename[]): string | null {
  if (typeof stored !== 'string' || renames.length === 0) return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  let changed = false;
  const walk = (list: unknown, path: string[]) => {
    if (!Array.isArray(list)) return;
    for (const block of list) {
      if (!block || typeof block !== 'object') continue;
      const record = block as Record<string, unknown>;
      const here = [...path, String(record.type)];
      for (const rename of renames) {
        if (rename.path.length === here.length && rename.path.every((part, index) => part === here[index])) {
          if (Object.hasOwn(record, rename.from)) {
            record[rename.to] = record[rename.from];
            delete record[rename.from];
            changed = true;
          }
        }
      }
      // Nested blocks columns: renames below this block name its type and the column.
      for (const [key, inner] of Object.entries(record)) {
        if (Array.isArray(inner) && renames.some((rename) => rename.path.length > here.length + 1)) {
          walk(inner, [...here, key]);
        }
      }
    }
  };
  walk(value, []);
  return changed ? JSON.stringify(value) : null;
}

/** The block changes of one blocks column a type change keeps: its name after the change and what changes. */
export interface ColumnBlockChange extends BlockChange {
  column: string;
}

/**
 * Plans the block changes of every blocks column a type change keeps (by name or `from`), refusing
 * the change (400, nothing changed) when a block column's type changes or a rename names nothing.
 */
export function planBlockChanges(
  old: ReadonlyMap<string, ColumnDescriptor>,
  columns: readonly ColumnChange[],
): ColumnBlockChange[] {
  const problems = noProblems();
  const changes: ColumnBlockChange[] = [];
  columns.forEach((column, index) => {
    const previous = old.get(column.from ?? column.name);
    if (previous?.type !== 'blocks' || column.type !== 'blocks') return;
    const change = planBlockChange(previous, column, `columns[${index}]`, problems);
    if (change.renames.length > 0 || change.dropped.length > 0) changes.push({ column: column.name, ...change });
  });
  if (hasProblems(problems)) throw validationError(problems);
  return changes;
}

/** Moves the values of renamed block columns to their new names in every row of `table`. */
export async function moveRenamedBlockValues(
  repository: ContentRepository,
  table: string,
  changes: readonly ColumnBlockChange[],
): Promise<void> {
  const renaming = changes.filter((change) => change.renames.length > 0);
  if (renaming.length === 0) return;
  for (const row of await repository.listByScan(table, { equals: [] })) {
    const changed: StoredRow = {};
    for (const change of renaming) {
      const text = renameInStoredBlocks(row[change.column], change.renames);
      if (text !== null) changed[change.column] = text;
    }
    if (Object.keys(changed).length > 0) await repository.update(table, String(row.id), changed);
  }
}
