import * as Checkbox from '@radix-ui/react-checkbox';
import * as Popover from '@radix-ui/react-popover';
import type { KeyboardEvent } from 'react';
import { IconCheck, IconChevronDown } from '../icons.js';
import type { SelectOption } from './select.js';

/** Props of a MultiSelect. */
export interface MultiSelectProps {
  /** Id of the trigger, for a `<label htmlFor>`. */
  id?: string;
  /** The chosen values, in any order. */
  values: readonly string[];
  options: readonly SelectOption[];
  /** The chosen values in the options' order. */
  onChange(values: string[]): void;
  /** The trigger's text while nothing is chosen ("All"). */
  emptyText: string;
  /** Names the list of choices for assistive technology. */
  listLabel: string;
}

/** Moves focus to the next or previous checkbox of the list with the arrow keys, Home and End. */
function moveFocus(event: KeyboardEvent<HTMLFieldSetElement>): void {
  const steps: Record<string, number> = { ArrowDown: 1, ArrowUp: -1 };
  const boxes = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="checkbox"]')];
  if (boxes.length === 0) return;
  const at = boxes.indexOf(document.activeElement as HTMLElement);
  let next: number | null = null;
  if (event.key in steps) next = (at + steps[event.key] + boxes.length) % boxes.length;
  else if (event.key === 'Home') next = 0;
  else if (event.key === 'End') next = boxes.length - 1;
  if (next === null) return;
  event.preventDefault();
  boxes[next].focus();
}

/**
 * Several choices from a short list: a button that says what is chosen ("Draft, Published") and
 * opens a list of checkboxes (Enter or Space opens it, the arrows move, Space ticks, Escape closes).
 */
export function MultiSelect({ id, values, options, onChange, emptyText, listLabel }: MultiSelectProps) {
  const chosen = options.filter((option) => values.includes(option.value));
  const summary = chosen.length === 0 ? emptyText : chosen.map((option) => option.label).join(', ');
  const toggle = (value: string, on: boolean) =>
    onChange(
      options
        .filter((option) => (option.value === value ? on : values.includes(option.value)))
        .map((option) => option.value),
    );
  return (
    <Popover.Root>
      <Popover.Trigger id={id} className="input ui-select-trigger" aria-haspopup="true">
        <span className="ui-select-value">{summary}</span>
        <span className="ui-select-icon" aria-hidden="true">
          <IconChevronDown />
        </span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content className="ui-popover ui-multi-content" align="start" sideOffset={4}>
          <fieldset aria-label={listLabel} className="ui-multi-list" onKeyDown={moveFocus}>
            {options.map((option) => {
              const boxId = `${id ?? 'multi'}-${option.value}`;
              const on = values.includes(option.value);
              return (
                <div key={option.value} className="ui-option ui-multi-option">
                  <Checkbox.Root
                    id={boxId}
                    className="ui-checkbox"
                    checked={on}
                    onCheckedChange={(next) => toggle(option.value, next === true)}
                  >
                    <Checkbox.Indicator className="ui-checkbox-mark">
                      <IconCheck />
                    </Checkbox.Indicator>
                  </Checkbox.Root>
                  <label htmlFor={boxId}>{option.label}</label>
                </div>
              );
            })}
          </fieldset>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
