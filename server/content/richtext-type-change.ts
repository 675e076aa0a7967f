import type { Kysely } from 'kysely';
import type { ColumnType } from '../../common/api-contract.js';
import { convertsValues } from '../../common/column-type-changes.js';
import { rewriteColumnValues } from '../db/queries/column-value-rewrite.js';
import type { ContentType } from './content-type.js';
import { markdownToRichtext, richtextToMarkdown } from './richtext-convert.js';

/** A column whose content a type change converts: its name after the change and the two types. */
export interface ColumnConversion {
  column: string;
  from: ColumnType;
  to: ColumnType;
}

/** How each conversion common/column-type-changes.ts allows turns a value. */
const CONVERTERS: Partial<Record<`${ColumnType}>${ColumnType}`, (value: string) => string | null>> = {
  'markdown>richtext': markdownToRichtext,
  'richtext>markdown': richtextToMarkdown,
};

/** The columns of a change whose type changes with a conversion (a renamed column named by `from`). */
export function conversionsOf(
  type: ContentType,
  columns: readonly { name: string; type: ColumnType; from?: string }[],
): ColumnConversion[] {
  return columns.flatMap((column) => {
    const old = type.columnsByName.get(column.from ?? column.name);
    return old && convertsValues(old.type, column.type)
      ? [{ column: column.name, from: old.type, to: column.type }]
      : [];
  });
}

/**
 * Converts the stored values of each column in `conversions` (after the table has its new column
 * names), in the change's transaction: Markdown to sanitized HTML or HTML to Markdown.
 */
export async function convertColumns(
  db: Kysely<unknown>,
  table: string,
  conversions: readonly ColumnConversion[],
): Promise<void> {
  for (const { column, from, to } of conversions) {
    const convert = CONVERTERS[`${from}>${to}`];
    if (convert) await rewriteColumnValues(db, table, column, convert);
  }
}
