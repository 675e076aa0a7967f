import { type Editor, mergeAttributes } from '@tiptap/core';
import Image from '@tiptap/extension-image';
import Link from '@tiptap/extension-link';
import { Table, TableKit } from '@tiptap/extension-table';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import '../styles/richtext-field.css';
import { ROW_LINK_ATTRIBUTE, rowLinkHref } from '../../../common/richtext-rules.js';
import type { FieldInputProps } from './field-types.js';
import { asText } from './field-values.js';
import { ImageDialog, LinkDialog, RowLinkDialog } from './richtext-dialogs.js';
import { cleanPastedHtml, tidyEditorHtml } from './richtext-paste.js';
import { RichtextToolbar, type ToolbarAction } from './richtext-toolbar.js';
import { isAllowedHref } from './richtext-value.js';

/** The heading levels a rich text has: the page's title is its h1, so the body starts at h2. */
export const HEADING_LEVELS = [2, 3, 4] as const;

/**
 * Links that keep the row they point at: a read gives a row link the row's current address and
 * `data-quire-row="<type>/<id>"`, which a write turns back into the stored `quire://row/…` form, so
 * the attribute stays on the link while it is edited.
 */
const RowAwareLink = Link.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      quireRow: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute(ROW_LINK_ATTRIBUTE),
        renderHTML: (attributes: Record<string, unknown>) =>
          typeof attributes.quireRow === 'string' ? { [ROW_LINK_ATTRIBUTE]: attributes.quireRow } : {},
      },
    };
  },
});

/**
 * Tables drawn without the widths TipTap writes as a style attribute (and a `<colgroup>`): the
 * editor's style policy refuses style attributes, and column widths are the site's layout.
 */
const PlainTable = Table.extend({
  renderHTML({ HTMLAttributes }) {
    const { style: _style, ...attributes } = HTMLAttributes;
    return ['table', mergeAttributes(this.options.HTMLAttributes, attributes), ['tbody', 0]];
  },
});

/**
 * The editor's document model: what the toolbar makes and what the server's sanitizer keeps.
 * Pasted or loaded HTML outside it (underline, colours, fonts, unknown elements) is dropped by
 * ProseMirror's parser, keeping the text.
 */
export function richtextExtensions() {
  return [
    StarterKit.configure({ heading: { levels: [...HEADING_LEVELS] }, underline: false, link: false }),
    RowAwareLink.configure({
      openOnClick: false,
      autolink: false,
      // Stored links carry only their href; the site decides how links open.
      HTMLAttributes: { target: null, rel: null, class: null },
      isAllowedUri: (url) => isAllowedHref(url),
    }),
    Image.configure({ inline: false, allowBase64: false }),
    PlainTable.configure({ resizable: false }),
    TableKit.configure({ table: false }),
  ];
}

type DialogKind = 'link' | 'image' | 'row';

/** What the editor's HTML is as a form value: '' for an empty document (TipTap writes `<p></p>`). */
function editorValue(editor: Editor): string {
  return editor.isEmpty ? '' : tidyEditorHtml(editor.getHTML());
}

/**
 * A WYSIWYG editor for a `richtext` column, on TipTap (ProseMirror): a toolbar of toggle buttons,
 * TipTap's keyboard shortcuts, undo and redo, paste cleaned of Word's and Google Docs' styles,
 * links to addresses or to rows, images uploaded to the media library with their alternative text,
 * and tables. The value is the document's HTML. A disabled fieldset around it (a read-only form)
 * makes it read-only too.
 */
export function RichtextEditor({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const html = asText(value);
  const emitted = useRef(html);
  const latestChange = useRef(onChange);
  latestChange.current = onChange;
  const toolbar = useRef<HTMLFieldSetElement>(null);
  const [dialog, setDialog] = useState<DialogKind | null>(null);
  // The editable element is the field's input: the frame's label, hint and error point at it.
  const contentAttributes = (): Record<string, string> => ({
    id,
    class: 'richtext-content prose',
    role: 'textbox',
    'aria-multiline': 'true',
    'aria-label': column.label,
    ...(describedBy ? { 'aria-describedby': describedBy } : {}),
    ...(invalid ? { 'aria-invalid': 'true' } : {}),
    ...(column.required ? { 'aria-required': 'true' } : {}),
  });

  const editor = useEditor({
    extensions: richtextExtensions(),
    content: html,
    // The styles are the editor's own stylesheet: nothing is injected into the page.
    injectCSS: false,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: contentAttributes(),
      transformPastedHTML: cleanPastedHtml,
    },
    onUpdate: ({ editor: current }) => {
      const next = editorValue(current);
      if (next === emitted.current) return;
      emitted.current = next;
      latestChange.current(next);
    },
  });

  // A value from outside (a reload, a merge, a restored revision) replaces the document.
  useEffect(() => {
    if (html === emitted.current) return;
    emitted.current = html;
    editor.commands.setContent(html, { emitUpdate: false });
  }, [editor, html]);

  // Attributes that follow the props after the first render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: contentAttributes reads exactly these
  useEffect(() => {
    editor.setOptions({
      editorProps: {
        ...editor.options.editorProps,
        attributes: contentAttributes(),
      },
    });
  }, [editor, id, column.label, column.required, describedBy, invalid]);

  // The toolbar is a fieldset, so a disabled fieldset around the form disables it: the text follows.
  useLayoutEffect(() => {
    const element = toolbar.current;
    if (!element) return;
    const follow = () => {
      const editable = !element.matches(':disabled');
      if (editor.isEditable !== editable) editor.setEditable(editable, false);
    };
    follow();
    const observer = new MutationObserver(follow);
    for (let node = element.parentElement?.closest('fieldset'); node; node = node.parentElement?.closest('fieldset')) {
      observer.observe(node, { attributes: true, attributeFilter: ['disabled'] });
    }
    return () => observer.disconnect();
  }, [editor]);

  const run = (action: ToolbarAction) => {
    const chain = editor.chain().focus();
    switch (action) {
      case 'bold':
        return chain.toggleBold().run();
      case 'italic':
        return chain.toggleItalic().run();
      case 'strike':
        return chain.toggleStrike().run();
      case 'heading2':
        return chain.toggleHeading({ level: 2 }).run();
      case 'heading3':
        return chain.toggleHeading({ level: 3 }).run();
      case 'heading4':
        return chain.toggleHeading({ level: 4 }).run();
      case 'bullets':
        return chain.toggleBulletList().run();
      case 'numbers':
        return chain.toggleOrderedList().run();
      case 'quote':
        return chain.toggleBlockquote().run();
      case 'code':
        return chain.toggleCode().run();
      case 'codeBlock':
        return chain.toggleCodeBlock().run();
      case 'rule':
        return chain.setHorizontalRule().run();
      case 'table':
        return chain.insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run();
      case 'addRow':
        return chain.addRowAfter().run();
      case 'addColumn':
        return chain.addColumnAfter().run();
      case 'deleteRow':
        return chain.deleteRow().run();
      case 'deleteColumn':
        return chain.deleteColumn().run();
      case 'deleteTable':
        return chain.deleteTable().run();
      case 'undo':
        return chain.undo().run();
      case 'redo':
        return chain.redo().run();
      case 'link':
      case 'image':
      case 'row':
        return setDialog(action);
    }
  };

  const closeDialog = () => {
    setDialog(null);
    editor.commands.focus();
  };
  const linkAt = () => asText(editor.getAttributes('link').href);
  // A link set here names its target by href alone: a row's `data-quire-row` goes with the old target.
  const setLink = (href: string, text: string) => {
    const attrs = { href, quireRow: null };
    const chain = editor.chain().focus().extendMarkRange('link');
    if (editor.state.selection.empty && !editor.isActive('link')) {
      chain.insertContent({ type: 'text', text, marks: [{ type: 'link', attrs }] }).run();
    } else {
      chain.setMark('link', attrs).run();
    }
    setDialog(null);
  };

  return (
    <div className={`richtext-field${invalid ? ' is-invalid' : ''}`}>
      <RichtextToolbar ref={toolbar} editor={editor} label={column.label} onAction={run} />
      <EditorContent editor={editor} className="richtext-body" />
      {dialog === 'link' && (
        <LinkDialog
          initial={linkAt()}
          onApply={(href) => setLink(href, href)}
          onRemove={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            setDialog(null);
          }}
          onCancel={closeDialog}
        />
      )}
      {dialog === 'row' && (
        <RowLinkDialog onPick={(link, title) => setLink(rowLinkHref(link), title)} onCancel={closeDialog} />
      )}
      {dialog === 'image' && (
        <ImageDialog
          onInsert={(image) => {
            editor.chain().focus().setImage(image).run();
            setDialog(null);
          }}
          onCancel={closeDialog}
        />
      )}
    </div>
  );
}
