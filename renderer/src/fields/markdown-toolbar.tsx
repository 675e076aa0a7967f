import type { ReactNode } from 'react';
import { IconCode, IconLink, IconList, IconListOrdered, IconQuote } from '../components/icons.js';
import { SHORTCUTS, type Shortcut, useShortcutText } from '../components/keyboard-shortcuts.js';
import { useT } from '../i18n/use-t.js';
import type { MarkdownFormat } from './markdown-format.js';

// The faces B, I and H are the usual symbols of these buttons, the same in every language.
const BUTTONS: { format: MarkdownFormat; shortcut?: Shortcut; face: ReactNode }[] = [
  // i18n-exempt
  { format: 'bold', shortcut: SHORTCUTS.bold, face: <b className="md-face">B</b> },
  // i18n-exempt
  { format: 'italic', shortcut: SHORTCUTS.italic, face: <i className="md-face md-face-italic">I</i> },
  // i18n-exempt
  { format: 'heading', face: <b className="md-face">H</b> },
  { format: 'link', shortcut: SHORTCUTS.link, face: <IconLink /> },
  { format: 'bullets', face: <IconList /> },
  { format: 'numbers', face: <IconListOrdered /> },
  { format: 'quote', face: <IconQuote /> },
  { format: 'code', face: <IconCode /> },
];

/** The formatting buttons above a Markdown text (each also has its name as tooltip and label). */
export function MarkdownToolbar({
  label,
  disabled,
  onFormat,
}: {
  label: string;
  disabled: boolean;
  onFormat(format: MarkdownFormat): void;
}) {
  const t = useT('fields');
  const shortcutText = useShortcutText();
  return (
    <fieldset className="md-toolbar">
      <legend className="visually-hidden">{t('markdown.formatting', { label })}</legend>
      {BUTTONS.map((button) => {
        const name = t(`markdown.buttons.${button.format}`);
        return (
          <button
            key={button.format}
            type="button"
            className="md-tool"
            disabled={disabled}
            // Keeps the selection in the text while the button is pressed.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => onFormat(button.format)}
            aria-label={name}
            title={
              button.shortcut ? t('markdown.withShortcut', { name, shortcut: shortcutText(button.shortcut) }) : name
            }
          >
            {button.face}
          </button>
        );
      })}
    </fieldset>
  );
}
