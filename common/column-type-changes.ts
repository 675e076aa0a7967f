import type { ColumnType } from './api-contract.js';

/**
 * Which types a saved column may change to, for the server's type changes and the type editor's
 * choices. Text, textarea and markdown hold the same text and switch freely; markdown and richtext
 * switch with every row's value converted (Markdown to HTML and back).
 */

const SAME_TEXT: readonly ColumnType[] = ['text', 'textarea', 'markdown'];
const CONVERTED: readonly (readonly [ColumnType, ColumnType])[] = [
  ['markdown', 'richtext'],
  ['richtext', 'markdown'],
];

/** Whether a change from `from` to `to` converts the column's values (rather than keeping them). */
export function convertsValues(from: ColumnType, to: ColumnType): boolean {
  return CONVERTED.some(([a, b]) => a === from && b === to);
}

/** Whether a saved column of type `from` may become `to` (its own type included). */
export function typeChangeAllowed(from: ColumnType, to: ColumnType): boolean {
  return from === to || (SAME_TEXT.includes(from) && SAME_TEXT.includes(to)) || convertsValues(from, to);
}
