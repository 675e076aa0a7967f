/**
 * Rules of `blocks` columns both the editor and the server follow: how deep block types may nest,
 * which names a block's own columns may not take, what a block id looks like, and the shape of a
 * column's `blocks` list (each block type's columns are checked like a content type's, by the server).
 */
import type { BlockType, ColumnDescriptor } from './api-contract.js';
import type { FieldProblem } from './field-problems.js';
import { isIdentifier } from './naming-rules.js';

/** Levels of `blocks` columns one content type may hold: a blocks column inside a block inside a block. */
export const MAX_BLOCK_DEPTH = 3;

/** Most block types one `blocks` column offers. */
export const MAX_BLOCK_TYPES = 50;

/** Most blocks one value holds. */
export const MAX_BLOCKS = 200;

/** Longest block type label. */
const MAX_BLOCK_LABEL = 200;

/** Members every block has besides its columns: a block column may not take these names. */
export const BLOCK_KEYS: ReadonlySet<string> = new Set(['type', 'id']);

/** A block id: 1 to 64 letters, digits, `_` or `-` (the server gives one to a block sent without). */
const BLOCK_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Whether a value is a well-formed block id. */
export function isBlockId(value: unknown): value is string {
  return typeof value === 'string' && BLOCK_ID.test(value);
}

/** Where a problem inside a value or descriptor is: `at` is a path suffix such as `[2].image`. */
export interface ProblemAt {
  at: string;
  problem: FieldProblem;
}

/**
 * Checks the shape of a `blocks` column's block type list (not the block types' columns, which
 * are column lists of their own): a non-empty array of `{ name, label, columns }` objects, names
 * identifiers and listed once, labels non-empty. Paths are relative to the column (`.blocks[1].name`).
 */
export function blockTypeListProblems(raw: unknown): ProblemAt[] {
  if (!Array.isArray(raw) || raw.length === 0) return [{ at: '.blocks', problem: { code: 'no_block_types' } }];
  if (raw.length > MAX_BLOCK_TYPES) {
    return [{ at: '.blocks', problem: { code: 'too_many', max: MAX_BLOCK_TYPES, of: 'block types' } }];
  }
  const found: ProblemAt[] = [];
  const names = new Set<string>();
  raw.forEach((item, index) => {
    const at = `.blocks[${index}]`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      found.push({ at, problem: { code: 'not_an_object' } });
      return;
    }
    const entry = item as Record<string, unknown>;
    const unknown = Object.keys(entry).filter((key) => key !== 'name' && key !== 'label' && key !== 'columns');
    if (unknown.length > 0) found.push({ at, problem: { code: 'unknown_members', members: unknown } });
    if (typeof entry.name !== 'string' || !isIdentifier(entry.name)) {
      found.push({ at: `${at}.name`, problem: { code: 'not_an_identifier' } });
    } else if (names.has(entry.name)) {
      found.push({ at: '.blocks', problem: { code: 'listed_twice', column: entry.name } });
    } else names.add(entry.name);
    const label = entry.label;
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_BLOCK_LABEL) {
      found.push({ at: `${at}.label`, problem: { code: 'not_a_label', max: MAX_BLOCK_LABEL } });
    }
    if (!Array.isArray(entry.columns) || entry.columns.length === 0) {
      found.push({ at: `${at}.columns`, problem: { code: 'not_a_column_list' } });
    }
  });
  return found;
}

/** How many levels of `blocks` columns a column list holds (0: none). */
export function blockDepth(columns: readonly ColumnDescriptor[]): number {
  let depth = 0;
  for (const column of columns) {
    if (column.type !== 'blocks' || !Array.isArray(column.blocks)) continue;
    for (const block of column.blocks) {
      const inner = Array.isArray(block?.columns) ? blockDepth(block.columns) : 0;
      depth = Math.max(depth, inner + 1);
    }
    depth = Math.max(depth, 1);
  }
  return depth;
}

/** The block type of a column named by a value's `type`, if the column offers it. */
export function blockTypeOf(column: ColumnDescriptor, name: unknown): BlockType | undefined {
  return typeof name === 'string' ? column.blocks?.find((block) => block.name === name) : undefined;
}

/** A column and every column inside its block types, at any depth. */
export function columnsWithin(column: ColumnDescriptor): ColumnDescriptor[] {
  const found = [column];
  if (column.type !== 'blocks') return found;
  for (const block of column.blocks ?? []) for (const inner of block.columns ?? []) found.push(...columnsWithin(inner));
  return found;
}
