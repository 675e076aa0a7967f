import { i18n } from '../i18n/i18n-instance.js';
/** The formatting buttons of the markdown field. */
export type MarkdownFormat = 'bold' | 'italic' | 'heading' | 'link' | 'bullets' | 'numbers' | 'quote' | 'code';

/** A change to a text: replace `[from, to)` with `insert`, then select `[selectFrom, selectTo)`. */
export interface TextEdit {
  from: number;
  to: number;
  insert: string;
  selectFrom: number;
  selectTo: number;
}

// Placeholders are inserted into the text, so they are in the editor's language.
const WRAPS: Partial<Record<MarkdownFormat, { mark: string; placeholder: () => string }>> = {
  bold: { mark: '**', placeholder: () => i18n.t('fields:markdown.placeholders.bold') },
  italic: { mark: '_', placeholder: () => i18n.t('fields:markdown.placeholders.italic') },
  code: { mark: '`', placeholder: () => i18n.t('fields:markdown.placeholders.code') },
};

const PREFIXES: Partial<Record<MarkdownFormat, (index: number) => string>> = {
  heading: () => '## ',
  bullets: () => '- ',
  numbers: (index) => `${index + 1}. `,
  quote: () => '> ',
};

/**
 * The edit a formatting button makes to the selection `[start, end)` of `text`: wraps it (bold,
 * italic, code, link) or prefixes each of its lines (heading, lists, quote). With nothing selected a
 * placeholder is inserted and selected, so typing replaces it.
 */
export function formatMarkdown(text: string, start: number, end: number, format: MarkdownFormat): TextEdit {
  const selected = text.slice(start, end);
  const wrap = WRAPS[format];
  if (wrap) {
    if (format === 'code' && selected.includes('\n')) {
      const insert = `\`\`\`\n${selected}\n\`\`\``;
      return { from: start, to: end, insert, selectFrom: start + 4, selectTo: start + 4 + selected.length };
    }
    const inner = selected || wrap.placeholder();
    const insert = `${wrap.mark}${inner}${wrap.mark}`;
    const selectFrom = start + wrap.mark.length;
    return { from: start, to: end, insert, selectFrom, selectTo: selectFrom + inner.length };
  }
  if (format === 'link') {
    const label = selected || i18n.t('fields:markdown.placeholders.link');
    const insert = `[${label}](https://)`;
    // The URL is what is still missing: it gets the selection (or the label, when none was selected).
    const urlStart = start + label.length + 3;
    return selected
      ? { from: start, to: end, insert, selectFrom: urlStart, selectTo: urlStart + 8 }
      : { from: start, to: end, insert, selectFrom: start + 1, selectTo: start + 1 + label.length };
  }
  const prefix = PREFIXES[format] ?? (() => '');
  // Whole lines: from the start of the first selected line to the end of the last.
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nextBreak = text.indexOf('\n', end > start && text[end - 1] === '\n' ? end - 1 : end);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak;
  const lines = text.slice(lineStart, lineEnd).split('\n');
  const insert = lines
    .map((line, index) => `${prefix(index)}${line.replace(/^(#{1,6} |[-*] |\d+\. |> )/, '')}`)
    .join('\n');
  return {
    from: lineStart,
    to: lineEnd,
    insert,
    selectFrom: lineStart + insert.length,
    selectTo: lineStart + insert.length,
  };
}

/** `text` with the edit applied. */
export function applyEdit(text: string, edit: TextEdit): string {
  return `${text.slice(0, edit.from)}${edit.insert}${text.slice(edit.to)}`;
}

/** Words in a text, for the counter under the editor. */
export function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
