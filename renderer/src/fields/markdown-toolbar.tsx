import type { ReactNode } from 'react';
import { IconCode, IconLink, IconList, IconListOrdered, IconQuote } from '../components/icons.js';
import type { MarkdownFormat } from './markdown-format.js';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const mod = isMac ? '⌘' : 'Ctrl+';

const BUTTONS: { format: MarkdownFormat; label: string; shortcut?: string; face: ReactNode }[] = [
  { format: 'bold', label: 'Bold', shortcut: `${mod}B`, face: <b className="md-face">B</b> },
  { format: 'italic', label: 'Italic', shortcut: `${mod}I`, face: <i className="md-face md-face-italic">I</i> },
  { format: 'heading', label: 'Heading', face: <b className="md-face">H</b> },
  { format: 'link', label: 'Link', shortcut: `${mod}K`, face: <IconLink /> },
  { format: 'bullets', label: 'Bulleted list', face: <IconList /> },
  { format: 'numbers', label: 'Numbered list', face: <IconListOrdered /> },
  { format: 'quote', label: 'Quote', face: <IconQuote /> },
  { format: 'code', label: 'Code', face: <IconCode /> },
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
  return (
    <fieldset className="md-toolbar">
      <legend className="visually-hidden">{label} formatting</legend>
      {BUTTONS.map((button) => (
        <button
          key={button.format}
          type="button"
          className="md-tool"
          disabled={disabled}
          // Keeps the selection in the text while the button is pressed.
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => onFormat(button.format)}
          aria-label={button.label}
          title={button.shortcut ? `${button.label} (${button.shortcut})` : button.label}
        >
          {button.face}
        </button>
      ))}
    </fieldset>
  );
}
