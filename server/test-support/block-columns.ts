import type { BlockType, ColumnDescriptor, ColumnType } from '../../common/api-contract.js';

/**
 * Column descriptors for tests of `blocks` columns (server, API and editor tests alike): a column
 * of blocks, its block types, and the text columns most of them hold. Each test states the block
 * types and columns it is about; these only spell the descriptor around them.
 */

/** A text column named and labelled `name`, optional unless `required`. */
export const textColumn = (name: string, required = false): ColumnDescriptor => ({
  name,
  label: name,
  type: 'text',
  required,
});

/** An optional column of any type (`extra`: its options, target or parent, or `required: true`). */
export const fieldColumn = (
  name: string,
  label: string,
  type: ColumnType,
  extra: Partial<ColumnDescriptor> = {},
): ColumnDescriptor => ({ name, label, type, required: false, ...extra });

/** A block type: the name a block's `type` holds, its label and its columns. */
export const blockType = (name: string, label: string, columns: ColumnDescriptor[]): BlockType => ({
  name,
  label,
  columns,
});

/** An optional `blocks` column offering these block types (`extra`: a condition, required). */
export const blocksColumn = (
  name: string,
  label: string,
  blocks: BlockType[],
  extra: Partial<ColumnDescriptor> = {},
): ColumnDescriptor => ({ name, label, type: 'blocks', required: false, blocks, ...extra });

/** A `blocks` column `b` with one block type of these columns: one level of nesting for depth and descriptor checks. */
export const blocksOf = (columns: ColumnDescriptor[], blockName = 'inner'): ColumnDescriptor =>
  blocksColumn('b', 'b', [blockType(blockName, blockName, columns)]);

/** The text block of the landing-page tests: a Markdown body. */
export const TEXT_BLOCK: BlockType = blockType('text', 'Text', [
  { name: 'body', label: 'Body', type: 'markdown', required: false },
]);

/**
 * A block type `group` whose `items` are nested blocks of one type, `quote`, with one column `said`
 * of `saidType`: the depth the search and read tests of blocks reach into.
 */
export const groupOfQuotes = (saidType: ColumnType): BlockType =>
  blockType('group', 'Group', [
    blocksColumn('items', 'Items', [blockType('quote', 'Quote', [fieldColumn('said', 'Said', saidType)])]),
  ]);
