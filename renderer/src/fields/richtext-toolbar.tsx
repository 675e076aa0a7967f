import type { Editor } from '@tiptap/core';
import { useEditorState } from '@tiptap/react';
import {
  BetweenHorizontalEnd,
  BetweenVerticalEnd,
  Grid2x2X,
  Heading2,
  Heading3,
  Heading4,
  Minus,
  Redo2,
  Table,
  TableColumnsSplit,
  TableRowsSplit,
  Undo2,
} from 'lucide-react';
import type { ReactNode, Ref } from 'react';
import { ROW_LINK_PREFIX } from '../../../common/richtext-rules.js';
import { IconCode, IconImage, IconLink, IconList, IconListOrdered, IconQuote } from '../components/icons.js';
import { SHORTCUTS, type Shortcut, useShortcutText } from '../components/keyboard-shortcuts.js';
import { useT } from '../i18n/use-t.js';

/** What a toolbar button does. */
export type ToolbarAction =
  | 'bold'
  | 'italic'
  | 'strike'
  | 'heading2'
  | 'heading3'
  | 'heading4'
  | 'bullets'
  | 'numbers'
  | 'quote'
  | 'code'
  | 'codeBlock'
  | 'link'
  | 'row'
  | 'image'
  | 'table'
  | 'rule'
  | 'addRow'
  | 'addColumn'
  | 'deleteRow'
  | 'deleteColumn'
  | 'deleteTable'
  | 'undo'
  | 'redo';

/** The shortcut of each toolbar action that has one: the editor's list, which the help dialog shows too. */
export const RICHTEXT_SHORTCUTS: Partial<Record<ToolbarAction, Shortcut>> = {
  bold: SHORTCUTS.bold,
  italic: SHORTCUTS.italic,
  strike: SHORTCUTS.strike,
  heading2: SHORTCUTS.heading2,
  heading3: SHORTCUTS.heading3,
  heading4: SHORTCUTS.heading4,
  bullets: SHORTCUTS.bullets,
  numbers: SHORTCUTS.numbers,
  quote: SHORTCUTS.quote,
  code: SHORTCUTS.code,
  codeBlock: SHORTCUTS.codeBlock,
  undo: SHORTCUTS.undo,
  redo: SHORTCUTS.redo,
};

const icon = (Drawing: typeof Table) => <Drawing className="icon" size={16} aria-hidden="true" focusable="false" />;

// The faces B, I and S are the usual symbols of these buttons, the same in every language.
const FACES: Record<ToolbarAction, ReactNode> = {
  // i18n-exempt
  bold: <b className="md-face">B</b>,
  // i18n-exempt
  italic: <i className="md-face md-face-italic">I</i>,
  // i18n-exempt
  strike: <s className="md-face">S</s>,
  heading2: icon(Heading2),
  heading3: icon(Heading3),
  heading4: icon(Heading4),
  bullets: <IconList />,
  numbers: <IconListOrdered />,
  quote: <IconQuote />,
  code: <IconCode />,
  // i18n-exempt
  codeBlock: <b className="md-face md-face-mono">{'{ }'}</b>,
  link: <IconLink />,
  // i18n-exempt
  row: <b className="md-face md-face-mono">#</b>,
  image: <IconImage />,
  table: icon(Table),
  rule: icon(Minus),
  addRow: icon(BetweenHorizontalEnd),
  addColumn: icon(BetweenVerticalEnd),
  deleteRow: icon(TableRowsSplit),
  deleteColumn: icon(TableColumnsSplit),
  deleteTable: icon(Grid2x2X),
  undo: icon(Undo2),
  redo: icon(Redo2),
};

/** The toolbar's groups, in order; the table group shows while the cursor is in a table. */
const GROUPS: readonly (readonly ToolbarAction[])[] = [
  ['heading2', 'heading3', 'heading4'],
  ['bold', 'italic', 'strike', 'code'],
  ['bullets', 'numbers', 'quote', 'codeBlock'],
  ['link', 'row', 'image', 'table', 'rule'],
  ['undo', 'redo'],
];
const TABLE_GROUP: readonly ToolbarAction[] = ['addRow', 'addColumn', 'deleteRow', 'deleteColumn', 'deleteTable'];

/** Which toggle buttons are on at the cursor, and whether undo and redo can run. */
function toolbarState(editor: Editor) {
  const link = editor.isActive('link');
  const attributes = link ? editor.getAttributes('link') : {};
  const toRow = link && (Boolean(attributes.quireRow) || String(attributes.href ?? '').startsWith(ROW_LINK_PREFIX));
  return {
    pressed: {
      bold: editor.isActive('bold'),
      italic: editor.isActive('italic'),
      strike: editor.isActive('strike'),
      heading2: editor.isActive('heading', { level: 2 }),
      heading3: editor.isActive('heading', { level: 3 }),
      heading4: editor.isActive('heading', { level: 4 }),
      bullets: editor.isActive('bulletList'),
      numbers: editor.isActive('orderedList'),
      quote: editor.isActive('blockquote'),
      code: editor.isActive('code'),
      codeBlock: editor.isActive('codeBlock'),
      link: link && !toRow,
      row: toRow,
    } as Partial<Record<ToolbarAction, boolean>>,
    inTable: editor.isActive('table'),
    canUndo: editor.can().undo(),
    canRedo: editor.can().redo(),
  };
}

/** The formatting buttons above a rich text: toggles say whether they are on (aria-pressed). */
export function RichtextToolbar({
  ref,
  editor,
  label,
  onAction,
}: {
  ref: Ref<HTMLFieldSetElement>;
  editor: Editor;
  label: string;
  onAction(action: ToolbarAction): void;
}) {
  const t = useT('fields-richtext');
  const fieldsT = useT('fields');
  const state = useEditorState({ editor, selector: ({ editor: current }) => toolbarState(current) });
  const shortcutText = useShortcutText();
  const groups = state.inTable ? [...GROUPS, TABLE_GROUP] : GROUPS;
  return (
    <fieldset ref={ref} className="md-toolbar richtext-toolbar">
      <legend className="visually-hidden">{t('formatting', { label })}</legend>
      {groups.map((group) => (
        // biome-ignore lint/a11y/useSemanticElements: a toolbar's group of buttons, not a form section
        <div key={group[0]} className="richtext-group" role="group">
          {group.map((action) => {
            const name = t(`buttons.${action}`);
            const shortcut = RICHTEXT_SHORTCUTS[action];
            const pressed = state.pressed[action];
            const disabled = (action === 'undo' && !state.canUndo) || (action === 'redo' && !state.canRedo);
            return (
              <button
                key={action}
                type="button"
                className="md-tool"
                aria-label={name}
                aria-pressed={pressed}
                aria-disabled={disabled || undefined}
                title={shortcut ? fieldsT('markdown.withShortcut', { name, shortcut: shortcutText(shortcut) }) : name}
                // Keeps the selection in the text while the button is pressed.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => !disabled && onAction(action)}
              >
                {/* The button's name is its label; the face is the picture of it. */}
                <span className="richtext-face" aria-hidden="true">
                  {FACES[action]}
                </span>
              </button>
            );
          })}
        </div>
      ))}
    </fieldset>
  );
}
