import { type ClipboardEvent, type KeyboardEvent, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { IconClose } from '../components/icons.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { addTags, removeTagAt, tagsFromRow } from './tags-value.js';

/** Chips shown in a list cell before "+N". */
const CELL_TAGS = 2;

/**
 * A token input: Enter or a comma turns the typed text into a tag, Backspace in the empty input
 * removes the last one, each chip has a remove button, pasted lists are split at commas. What was
 * typed but not yet added becomes a tag when the input loses focus, so Save never drops it.
 */
function TagsInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const t = useT('fields');
  const tags = tagsFromRow(value);
  const [draft, setDraft] = useState('');
  const [announcement, setAnnouncement] = useState('');
  const input = useRef<HTMLInputElement>(null);

  const commit = (text: string) => {
    const next = addTags(tags, text);
    setDraft('');
    if (next === tags) return;
    onChange(next);
    const added = next.slice(tags.length);
    setAnnouncement(
      added.length === 1 ? t('tags.addedOne', { tag: added[0] }) : t('tags.added', { count: added.length }),
    );
  };
  const remove = (index: number) => {
    onChange(removeTagAt(tags, index));
    setAnnouncement(t('tags.removed', { tag: tags[index] }));
    input.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's' && draft.trim() !== '') {
      // The save shortcut runs next, on the window: the typed tag must be in the form by then.
      flushSync(() => commit(draft));
    } else if (event.key === 'Enter' || event.key === ',') {
      // Enter adds a tag instead of submitting the form.
      event.preventDefault();
      commit(draft);
    } else if (event.key === 'Backspace' && draft === '' && tags.length > 0) {
      event.preventDefault();
      remove(tags.length - 1);
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pasted = event.clipboardData.getData('text');
    if (!/[,\n]/.test(pasted)) return;
    event.preventDefault();
    commit(`${draft},${pasted}`);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the box's empty space is a mouse shortcut to its input, which is keyboard-reachable itself
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above; the input takes the keys
    <div
      className={`tags-box${invalid ? ' is-invalid' : ''}`}
      onClick={(event) => {
        if (event.target === event.currentTarget) input.current?.focus();
      }}
    >
      {tags.length > 0 && (
        <ul className="tags-list" aria-label={t('tags.list', { label: column.label, count: tags.length })}>
          {tags.map((tag, index) => (
            <li key={tag} className="tag">
              <span className="tag-text">{tag}</span>
              <button
                type="button"
                className="tag-remove"
                onClick={() => remove(index)}
                aria-label={t('tags.remove', { tag })}
                title={t('common:actions.remove')}
              >
                <IconClose />
              </button>
            </li>
          ))}
        </ul>
      )}
      <input
        ref={input}
        id={id}
        name={column.name}
        type="text"
        className="tags-input"
        value={draft}
        placeholder={tags.length === 0 ? t('tags.placeholder') : ''}
        onChange={(event) => {
          const text = event.target.value;
          // A comma typed or dropped mid-text (IME, mobile keyboards) adds what precedes it.
          if (text.includes(',')) commit(text);
          else setDraft(text);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => draft.trim() !== '' && commit(draft)}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        autoComplete="off"
        enterKeyHint="done"
      />
      <span className="visually-hidden" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}

function TagsCell({ value }: FieldCellProps) {
  const tags = tagsFromRow(value);
  if (tags.length === 0) return <span className="cell-empty">—</span>;
  const shown = tags.slice(0, CELL_TAGS);
  return (
    <span className="cell-tags" title={tags.join(', ')}>
      {shown.map((tag) => (
        <span key={tag} className="chip">
          {tag}
        </span>
      ))}
      {tags.length > shown.length && <span className="chip chip-more">+{tags.length - shown.length}</span>}
    </span>
  );
}

/** `tags`: a list of distinct strings, edited as chips; the body gets the array ([] clears it). */
export const tagsField: FieldWidget = {
  typeName: () => i18n.t('fields:types.tags'),
  Input: TagsInput,
  Cell: TagsCell,
  initial: () => [],
  fromRow: (value) => tagsFromRow(value),
  toBody: (value) => tagsFromRow(value),
  editable: () => true,
  listable: true,
  listRank: 3,
  sortable: false,
  hint: () => i18n.t('fields:tags.hint'),
};
