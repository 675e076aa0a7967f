import * as Popover from '@radix-ui/react-popover';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { IconCheck, IconChevronDown } from '../icons.js';

/** One choice of a Select: the value it stands for and the text shown. */
export interface SelectOption {
  value: string;
  label: string;
  /** The option's language, when it is not the editor's (a language's own name). */
  lang?: string;
}

/** Props of a Select. */
export interface SelectProps {
  /** Id of the trigger, for a `<label htmlFor>`. */
  id?: string;
  value: string;
  options: readonly SelectOption[];
  onChange(value: string): void;
  size?: 'default' | 'small';
  required?: boolean;
  disabled?: boolean;
  /** Says why, when the control is disabled. */
  title?: string;
  /** Names the control when no `<label>` points at it. */
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
}

/** How long the letters typed to find an option count as one word. */
const TYPEAHEAD_MS = 700;

/**
 * One choice from a short list: a combobox button that opens a listbox (Enter, Space or the arrows
 * open it; the arrows, Home, End and typing move; Enter or Space picks; Escape closes), styled like
 * every other input. The popup is a Radix Popover (placement, dismissal, focus return); the listbox
 * is ours because Radix Select injects `<style>` elements, which the editor's style policy refuses.
 */
export function Select({
  id,
  value,
  options,
  onChange,
  size = 'default',
  required,
  disabled,
  title,
  'aria-label': ariaLabel,
  'aria-labelledby': labelledBy,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
}: SelectProps) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const selectedAt = options.findIndex((option) => option.value === value);
  const [active, setActive] = useState(Math.max(selectedAt, 0));
  const typed = useRef({ text: '', at: 0 });
  const list = useRef<HTMLDivElement>(null);

  const show = (at: number) => {
    setActive(Math.min(Math.max(at, 0), options.length - 1));
    setOpen(true);
  };
  const pick = (at: number) => {
    const option = options[at];
    setOpen(false);
    if (option && option.value !== value) onChange(option.value);
  };
  const onTriggerKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (open || disabled) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      show(selectedAt >= 0 ? selectedAt : event.key === 'ArrowUp' ? options.length - 1 : 0);
    }
  };
  const onListKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = options.length - 1;
    const moves: Record<string, number> = {
      ArrowDown: Math.min(active + 1, last),
      ArrowUp: Math.max(active - 1, 0),
      Home: 0,
      End: last,
      PageDown: Math.min(active + 10, last),
      PageUp: Math.max(active - 10, 0),
    };
    if (event.key in moves) {
      event.preventDefault();
      setActive(moves[event.key]);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      pick(active);
    } else if (event.key === 'Tab') {
      setOpen(false);
    } else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Typing moves to the next option starting with the letters typed in quick succession.
      const now = Date.now();
      const text = (now - typed.current.at < TYPEAHEAD_MS ? typed.current.text : '') + event.key.toLowerCase();
      typed.current = { text, at: now };
      const from = text.length === 1 ? active + 1 : active;
      const order = [...options.slice(from), ...options.slice(0, from)];
      const found = order.find((option) => option.label.toLowerCase().startsWith(text));
      if (found) setActive(options.indexOf(found));
    }
  };
  const optionId = (at: number) => `${listId}-${at}`;

  return (
    <Popover.Root open={open} onOpenChange={(next) => (next ? show(selectedAt) : setOpen(false))}>
      <Popover.Trigger
        id={id}
        role="combobox"
        className={`input ui-select-trigger${size === 'small' ? ' ui-select-small' : ''}`}
        aria-haspopup="listbox"
        aria-controls={open ? listId : undefined}
        aria-required={required || undefined}
        aria-label={ariaLabel}
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        title={title}
        onKeyDown={onTriggerKeyDown}
      >
        <span className="ui-select-value">{options[selectedAt]?.label ?? ''}</span>
        <span className="ui-select-icon" aria-hidden="true">
          <IconChevronDown />
        </span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="ui-popover ui-select-content"
          align="start"
          sideOffset={4}
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            list.current?.focus();
          }}
        >
          <div
            ref={list}
            id={listId}
            role="listbox"
            tabIndex={-1}
            className="ui-listbox"
            aria-label={ariaLabel}
            aria-labelledby={labelledBy ?? id}
            aria-activedescendant={options.length > 0 ? optionId(active) : undefined}
            onKeyDown={onListKeyDown}
          >
            {options.map((option, at) => (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox takes the keys for its options (aria-activedescendant)
              <div
                key={option.value}
                id={optionId(at)}
                role="option"
                tabIndex={-1}
                lang={option.lang}
                aria-selected={at === selectedAt}
                className="ui-option"
                data-highlighted={at === active ? '' : undefined}
                ref={at === active ? (node) => node?.scrollIntoView({ block: 'nearest' }) : undefined}
                onClick={() => pick(at)}
                onMouseMove={() => at !== active && setActive(at)}
              >
                <span>{option.label}</span>
                {at === selectedAt && (
                  <span className="ui-option-check">
                    <IconCheck />
                  </span>
                )}
              </div>
            ))}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
