import type { BlockType, ColumnDescriptor } from '../../../common/api-contract.js';
import { blockTypeOf } from '../../../common/block-rules.js';
import type { FieldWidget, FormValue } from './field-types.js';

/** How blocks find the widget of a column: the field registry's `widgetFor`, passed in so no module cycle forms. */
export type WidgetLookup = (column: Pick<ColumnDescriptor, 'type'>) => FieldWidget;

/**
 * One block while it is edited: its type, its id (kept across saves, new for a new or duplicated
 * block), and the form value of each of its type's columns. A block whose type the column no longer
 * offers keeps what it came with in `kept`, untouched, so saving never loses it.
 */
export interface BlockForm {
  type: string;
  id: string;
  values: Record<string, FormValue>;
  kept?: Record<string, unknown>;
}

/** A new block id: random, so two editors adding blocks at once never pick the same one. */
export function newBlockId(): string {
  return globalThis.crypto.randomUUID();
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A new, empty block of a type: each column's initial value, as on a new row. */
export function newBlock(type: BlockType, now: Date, widgetFor: WidgetLookup): BlockForm {
  const values: Record<string, FormValue> = {};
  for (const column of type.columns) values[column.name] = widgetFor(column).initial(column, now);
  return { type: type.name, id: newBlockId(), values };
}

/** The blocks of a row's value (`[{type, id, ...fields}]`) as form values; anything else is no blocks. */
export function blocksFromRow(value: unknown, column: ColumnDescriptor, widgetFor: WidgetLookup): BlockForm[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((item) => {
    const typeName = typeof item.type === 'string' ? item.type : '';
    const id = typeof item.id === 'string' && item.id !== '' ? item.id : newBlockId();
    const type = blockTypeOf(column, typeName);
    if (!type) return { type: typeName, id, values: {}, kept: { ...item } };
    const values: Record<string, FormValue> = {};
    for (const inner of type.columns) values[inner.name] = widgetFor(inner).fromRow(item[inner.name], inner);
    return { type: typeName, id, values };
  });
}

/** The write-body value of the blocks: `[{type, id, ...fields}]`, empty fields left out; no blocks is null. */
export function blocksToBody(blocks: readonly BlockForm[], column: ColumnDescriptor, widgetFor: WidgetLookup): unknown {
  if (blocks.length === 0) return null;
  return blocks.map((block) => {
    const type = blockTypeOf(column, block.type);
    if (!type || block.kept) return { ...block.kept, type: block.type, id: block.id };
    const body: Record<string, unknown> = { type: block.type, id: block.id };
    for (const inner of type.columns) {
      const sent = widgetFor(inner).toBody(block.values[inner.name], inner);
      if (sent !== null && sent !== undefined) body[inner.name] = sent;
    }
    return body;
  });
}

/** The blocks as a form value holds them: an array of blocks, or none. */
export function asBlocks(value: FormValue): BlockForm[] {
  return Array.isArray(value) ? (value as BlockForm[]) : [];
}

/** The blocks with the one at `from` moved to `to` (both clamped to the list). */
export function moveBlock(blocks: readonly BlockForm[], from: number, to: number): BlockForm[] {
  const last = blocks.length - 1;
  const target = Math.min(Math.max(to, 0), last);
  if (from < 0 || from > last || from === target) return [...blocks];
  const next = [...blocks];
  const [moved] = next.splice(from, 1);
  next.splice(target, 0, moved);
  return next;
}

/** A deep copy of a block's values with new ids for it and for every block nested in it. */
function copyWithNewIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyWithNewIds);
  if (!isRecord(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) copy[key] = copyWithNewIds(member);
  // A nested block form (type, id, values) gets an id of its own, like the copied block.
  if (typeof copy.type === 'string' && typeof copy.id === 'string' && isRecord(copy.values)) copy.id = newBlockId();
  return copy;
}

/** The blocks with a copy of the one at `index` right after it; the copy and its nested blocks have new ids. */
export function duplicateBlock(blocks: readonly BlockForm[], index: number): BlockForm[] {
  const block = blocks[index];
  if (!block) return [...blocks];
  const copy = copyWithNewIds(block) as BlockForm;
  return [...blocks.slice(0, index + 1), { ...copy, id: newBlockId() }, ...blocks.slice(index + 1)];
}

/** A removed block and where it stood, so Undo puts it back. */
export interface RemovedBlock {
  block: BlockForm;
  index: number;
}

/** The blocks without the one at `index`, and what Undo needs. */
export function removeBlock(
  blocks: readonly BlockForm[],
  index: number,
): { blocks: BlockForm[]; removed: RemovedBlock | null } {
  const block = blocks[index];
  if (!block) return { blocks: [...blocks], removed: null };
  return { blocks: blocks.filter((_, at) => at !== index), removed: { block, index } };
}

/** The blocks with a removed block back where it stood (at the end if the list has grown shorter). */
export function restoreBlock(blocks: readonly BlockForm[], removed: RemovedBlock): BlockForm[] {
  if (blocks.some((block) => block.id === removed.block.id)) return [...blocks];
  const at = Math.min(removed.index, blocks.length);
  return [...blocks.slice(0, at), removed.block, ...blocks.slice(at)];
}
