import { type KeyboardEvent, useLayoutEffect, useRef, useState } from 'react';
import { matchesShortcut, SHORTCUTS } from '../components/keyboard-shortcuts.js';
import { formatNumber } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import type { FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';
import { applyEdit, countWords, formatMarkdown, type MarkdownFormat, type TextEdit } from './markdown-format.js';
import { MarkdownPreview } from './markdown-preview.js';
import { MarkdownToolbar } from './markdown-toolbar.js';
import { LongTextCell } from './TextareaField.js';

type Mode = 'write' | 'preview' | 'split';
const MODES: readonly Mode[] = ['write', 'preview', 'split'];
const FORMAT_SHORTCUTS = ['bold', 'italic', 'link'] as const satisfies readonly MarkdownFormat[];

/**
 * A Markdown editor: the text with formatting buttons (and Ctrl/Cmd+B, I, K), and a rendered
 * preview instead of or beside it. Formatting goes through the browser's own editing where it can,
 * so Undo undoes it.
 */
function MarkdownInput({ column, id, value, onChange, describedBy, invalid, placeholder }: FieldInputProps) {
  const text = asText(value);
  const [mode, setMode] = useState<Mode>('write');
  const area = useRef<HTMLTextAreaElement>(null);
  const pendingSelection = useRef<[number, number] | null>(null);

  useLayoutEffect(() => {
    const selection = pendingSelection.current;
    if (!selection || !area.current) return;
    pendingSelection.current = null;
    area.current.setSelectionRange(selection[0], selection[1]);
  });

  const apply = (edit: TextEdit) => {
    const element = area.current;
    if (!element) return;
    element.focus();
    element.setSelectionRange(edit.from, edit.to);
    // insertText keeps the change on the browser's undo stack; where it is missing, set the value.
    const inserted = document.execCommand?.('insertText', false, edit.insert) ?? false;
    if (inserted && element.value === applyEdit(text, edit)) {
      element.setSelectionRange(edit.selectFrom, edit.selectTo);
      return;
    }
    pendingSelection.current = [edit.selectFrom, edit.selectTo];
    onChange(applyEdit(text, edit));
  };
  const format = (kind: MarkdownFormat) => {
    const element = area.current;
    if (!element) return;
    apply(formatMarkdown(element.value, element.selectionStart, element.selectionEnd, kind));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    const kind = FORMAT_SHORTCUTS.find((name) => matchesShortcut(event, SHORTCUTS[name]));
    if (!kind) return;
    event.preventDefault();
    format(kind);
  };

  const words = countWords(text);
  const t = useT('fields');
  return (
    <div className={`markdown-field markdown-${mode}${invalid ? ' is-invalid' : ''}`}>
      <div className="markdown-bar">
        <MarkdownToolbar label={column.label} disabled={mode === 'preview'} onFormat={format} />
        <fieldset className="segmented">
          <legend className="visually-hidden">{t('markdown.view', { label: column.label })}</legend>
          {MODES.map((option) => (
            <button
              key={option}
              type="button"
              className="segmented-button"
              aria-pressed={mode === option}
              onClick={() => setMode(option)}
            >
              {t(`markdown.modes.${option}`)}
            </button>
          ))}
        </fieldset>
      </div>
      <div className="markdown-panes">
        <textarea
          ref={area}
          id={id}
          name={column.name}
          className="markdown-text"
          rows={12}
          value={text}
          hidden={mode === 'preview'}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          placeholder={placeholder}
          required={column.required}
          spellCheck
        />
        {mode !== 'write' && <MarkdownPreview source={text} label={column.label} />}
      </div>
      <p className="markdown-footer">
        <span>{t('markdown.words', { count: words, formatted: formatNumber(words) })}</span>
        <a href="https://commonmark.org/help/" target="_blank" rel="noopener noreferrer">
          {t('types.markdown')}
        </a>
      </p>
    </div>
  );
}

/** `markdown`: a body text in Markdown, edited with formatting buttons and a rendered preview. */
export const markdownField: FieldWidget = {
  typeName: () => i18n.t('fields:types.markdown'),
  Input: MarkdownInput,
  Cell: LongTextCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: false,
};
