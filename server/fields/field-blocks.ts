import type {
  BlockValue,
  ColumnDescriptor,
  ColumnType,
  ColumnValue,
  RelationValue,
} from '../../common/api-contract.js';
import {
  BLOCK_KEYS,
  blockDepth,
  blockTypeListProblems,
  blockTypeOf,
  isBlockId,
  MAX_BLOCK_DEPTH,
  MAX_BLOCKS,
  type ProblemAt,
} from '../../common/block-rules.js';
import { shownColumns } from '../../common/field-conditions.js';
import type { FieldProblem } from '../../common/field-problems.js';
import { isIdentifier, RESERVED_COLUMNS } from '../../common/naming-rules.js';
import type { FieldType, JsonSchema, ParseResult, RowPointer, SchemaUse } from './field.js';
import { ok } from './field.js';

/** What the blocks field needs of the registry it is part of (passed in, so the two do not import each other). */
export interface BlockFieldContext {
  fieldFor(type: ColumnType): FieldType;
  isColumnType(type: string): type is ColumnType;
  columnSchema(column: ColumnDescriptor, use: SchemaUse): JsonSchema;
}

/** Column types a block may not hold: a slug is unique in its table and derived from a column of the row. */
const NOT_IN_BLOCKS: ReadonlySet<ColumnType> = new Set(['slug']);

/**
 * `blocks`: an ordered list of typed blocks, `[{ "type": "hero", "id": "…", …fields }]`, each
 * block's fields parsed by the same field types as a row's columns (nested blocks too, up to
 * MAX_BLOCK_DEPTH levels). The server gives an id to a block sent without one; ids are unique in
 * a value. Stored as JSON text; problems name their place inside the value (`sections[2].image`).
 */
export function blocksFieldWith(registry: BlockFieldContext): FieldType {
  const { fieldFor } = registry;

  /** Parses one value against a column's block types; `within` collects every problem by path. */
  function parseBlocks(raw: unknown, column: ColumnDescriptor): ParseResult {
    if (raw === undefined || raw === null || raw === '') return ok(null);
    let list = raw;
    if (typeof raw === 'string') {
      // A form sends the list as JSON text.
      try {
        list = JSON.parse(raw);
      } catch {
        return fail([{ at: '', problem: { code: 'not_a_block_list' } }]);
      }
    }
    if (!Array.isArray(list) || !list.every((item) => item && typeof item === 'object' && !Array.isArray(item))) {
      return fail([{ at: '', problem: { code: 'not_a_block_list' } }]);
    }
    if (list.length > MAX_BLOCKS)
      return fail([{ at: '', problem: { code: 'too_many', max: MAX_BLOCKS, of: 'blocks' } }]);
    if (list.length === 0) return ok(null);
    const found: ProblemAt[] = [];
    const ids = new Set<string>();
    const blocks: BlockValue[] = [];
    list.forEach((item: Record<string, unknown>, index) => {
      const at = `[${index}]`;
      const blockType = blockTypeOf(column, item.type);
      if (!blockType) {
        const types = (column.blocks ?? []).map((block) => block.name);
        found.push({ at: `${at}.type`, problem: { code: 'not_a_block_type', types } });
        return;
      }
      let id = item.id;
      if (id === undefined || id === null || id === '') id = crypto.randomUUID();
      if (!isBlockId(id)) found.push({ at: `${at}.id`, problem: { code: 'not_a_block_id' } });
      else if (ids.has(id)) found.push({ at: `${at}.id`, problem: { code: 'repeated_block_id', id } });
      else ids.add(id);
      const block: BlockValue = { type: blockType.name, id: String(id) };
      const names = new Set(blockType.columns.map((inner) => inner.name));
      for (const key of Object.keys(item)) {
        if (!BLOCK_KEYS.has(key) && !names.has(key)) {
          found.push({ at: `${at}.${key}`, problem: { code: 'not_a_field', table: blockType.name } });
        }
      }
      const failed = new Set<string>();
      for (const inner of blockType.columns) {
        const path = `${at}.${inner.name}`;
        const parsed = fieldFor(inner.type).parse(
          Object.hasOwn(item, inner.name) ? item[inner.name] : undefined,
          inner,
        );
        if (!parsed.ok) {
          failed.add(inner.name);
          if (parsed.within)
            for (const deeper of parsed.within) found.push({ at: `${path}${deeper.at}`, problem: deeper.problem });
          else found.push({ at: path, problem: parsed.problem });
          continue;
        }
        block[inner.name] = parsed.value;
      }
      // A column hidden by its condition (`when`, the editor's rule) keeps its value but is not required.
      const shown = shownColumns(blockType.columns, (name) => block[name]);
      for (const inner of blockType.columns) {
        if (!inner.required || failed.has(inner.name) || !shown.has(inner.name)) continue;
        if (block[inner.name] === null) found.push({ at: `${at}.${inner.name}`, problem: { code: 'required' } });
      }
      blocks.push(block);
    });
    return found.length > 0 ? fail(found) : ok(blocks);
  }

  /** Reads stored JSON text back as blocks of the column's current block types; others are left out. */
  function serializeBlocks(stored: unknown, column: ColumnDescriptor): ColumnValue {
    const list = storedBlocks(stored);
    if (list === null) return null;
    const blocks: BlockValue[] = [];
    for (const item of list) {
      const blockType = blockTypeOf(column, item.type);
      if (!blockType || typeof item.id !== 'string') continue;
      const block: BlockValue = { type: blockType.name, id: item.id };
      for (const inner of blockType.columns) {
        const field = fieldFor(inner.type);
        const value = Object.hasOwn(item, inner.name) ? (item[inner.name] as ColumnValue) : null;
        // Through the field's own storage form, so a block's field reads as the same column type would.
        block[inner.name] = field.serialize(value === null ? null : field.toStored(value), inner);
      }
      blocks.push(block);
    }
    return blocks;
  }

  /** Every row a value points at through relations, in this column's blocks at any depth. */
  function blockRowPointers(value: ColumnValue, column: ColumnDescriptor): RowPointer[] {
    if (!Array.isArray(value)) return [];
    const pointers: RowPointer[] = [];
    value.forEach((item, index) => {
      if (!item || typeof item !== 'object') return;
      const block = item as BlockValue;
      const blockType = blockTypeOf(column, block.type);
      if (!blockType) return;
      for (const inner of blockType.columns) {
        const found = fieldFor(inner.type).rowPointers?.(block[inner.name] ?? null, inner) ?? [];
        for (const pointer of found) pointers.push({ ...pointer, at: `[${index}].${inner.name}${pointer.at}` });
      }
    });
    return pointers;
  }

  /** A read value with the relations inside its blocks, at any depth, replaced by `resolve`. */
  function resolveBlockPointers(
    value: ColumnValue,
    column: ColumnDescriptor,
    resolve: (pointer: RowPointer) => RelationValue | null,
  ): ColumnValue {
    if (!Array.isArray(value)) return value;
    return value.map((item) => {
      const block = item as BlockValue;
      const blockType = blockTypeOf(column, block?.type);
      if (!blockType) return block;
      const resolved: BlockValue = { ...block };
      for (const inner of blockType.columns) {
        const field = fieldFor(inner.type);
        const current = block[inner.name] ?? null;
        if (field.resolvePointers) resolved[inner.name] = field.resolvePointers(current, inner, resolve);
        else if (field.rowPointers) {
          const [pointer] = field.rowPointers(current, inner);
          resolved[inner.name] = pointer ? resolve(pointer) : null;
        }
      }
      return resolved;
    });
  }

  /** The text of every field inside the blocks that has text to search, at any depth, a block a line. */
  function blockSearchText(stored: unknown, column: ColumnDescriptor): string | null {
    const lines: string[] = [];
    for (const item of storedBlocks(stored) ?? []) {
      const blockType = blockTypeOf(column, item.type);
      if (!blockType) continue;
      for (const inner of blockType.columns) {
        const field = fieldFor(inner.type);
        const value = Object.hasOwn(item, inner.name) ? (item[inner.name] as ColumnValue) : null;
        if (!field.searchText || value === null) continue;
        const text = field.searchText(field.toStored(value), inner);
        if (text) lines.push(text);
      }
    }
    return lines.length > 0 ? lines.join('\n') : null;
  }

  function blockSchema(column: ColumnDescriptor, use: SchemaUse): JsonSchema {
    const members = (column.blocks ?? []).map((blockType) => ({
      type: 'object',
      title: blockType.label,
      properties: {
        type: { const: blockType.name },
        id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
        ...Object.fromEntries(blockType.columns.map((inner) => [inner.name, registry.columnSchema(inner, use)])),
      },
      required: [
        'type',
        ...(use === 'read' ? ['id', ...blockType.columns.map((inner) => inner.name)] : []),
        ...(use === 'read' ? [] : blockType.columns.filter((inner) => inner.required).map((inner) => inner.name)),
      ],
      additionalProperties: false,
    }));
    return {
      type: 'array',
      maxItems: MAX_BLOCKS,
      items: { type: 'object', oneOf: members, discriminator: { propertyName: 'type' } },
    };
  }

  /** The first problem of a block type list and its columns, at any depth. */
  function descriptorProblem(column: ColumnDescriptor, depth: number): FieldProblem | null {
    if (depth > MAX_BLOCK_DEPTH) return { code: 'too_deep', max: MAX_BLOCK_DEPTH };
    const shape = blockTypeListProblems(column.blocks);
    if (shape.length > 0) return shape[0].problem;
    for (const blockType of column.blocks ?? []) {
      const names = new Set<string>();
      for (const inner of blockType.columns) {
        if (typeof inner.name !== 'string' || !isIdentifier(inner.name)) return { code: 'not_an_identifier' };
        if (BLOCK_KEYS.has(inner.name) || RESERVED_COLUMNS.has(inner.name))
          return { code: 'reserved', name: inner.name };
        if (names.has(inner.name)) return { code: 'listed_twice', column: inner.name };
        names.add(inner.name);
        if (typeof inner.type !== 'string' || !registry.isColumnType(inner.type) || NOT_IN_BLOCKS.has(inner.type))
          return { code: 'unknown_column_type' };
        const found =
          inner.type === 'blocks'
            ? descriptorProblem(inner, depth + 1)
            : fieldFor(inner.type).checkDescriptor(inner, blockType.columns);
        if (found) return found;
      }
    }
    return null;
  }

  return {
    type: 'blocks',
    sqlType: 'text',
    filter: 'none',
    orderable: false,
    parse: parseBlocks,
    parseFilter: () => ok(null),
    toStored: (value) => (Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : null),
    serialize: serializeBlocks,
    jsonSchema(column, use) {
      if (use === 'form') {
        return { type: 'string', contentMediaType: 'application/json', description: 'The blocks as JSON text' };
      }
      return blockSchema(column, use);
    },
    searchText: blockSearchText,
    rowPointers: blockRowPointers,
    resolvePointers: resolveBlockPointers,
    checkDescriptor(column) {
      if (blockDepth([column]) > MAX_BLOCK_DEPTH) return { code: 'too_deep', max: MAX_BLOCK_DEPTH };
      return descriptorProblem(column, 1);
    },
  };
}

/** Stored JSON text as a list of block objects, or null when it is none. */
function storedBlocks(stored: unknown): Record<string, unknown>[] | null {
  if (typeof stored !== 'string' || stored === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  return value.filter((item): item is Record<string, unknown> => !!item && typeof item === 'object');
}

/** A parse failure naming every problem inside the value, each at its path. */
function fail(found: ProblemAt[]): ParseResult {
  return { ok: false, problem: found[0].problem, within: found };
}
