import * as RadixSelect from '@radix-ui/react-select';
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
  /** Name of the value in a form. */
  name?: string;
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

/**
 * Radix refuses an item whose value is the empty string (it means "nothing chosen" there), while a
 * select of ours may offer "—" or "All" for it; this stands in for it inside Radix only.
 */
const EMPTY = '\u0000empty';

const toRadix = (value: string) => (value === '' ? EMPTY : value);
const fromRadix = (value: string) => (value === EMPTY ? '' : value);

/**
 * One choice from a short list: a button that opens a listbox (Enter, Space or the arrows open it,
 * the arrows and typing move, Enter picks, Escape closes), styled like every other input.
 */
export function Select({
  id,
  value,
  options,
  onChange,
  name,
  size = 'default',
  required,
  disabled,
  title,
  'aria-label': ariaLabel,
  'aria-labelledby': labelledBy,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
}: SelectProps) {
  return (
    <RadixSelect.Root
      value={toRadix(value)}
      onValueChange={(next) => onChange(fromRadix(next))}
      name={name}
      required={required}
      disabled={disabled}
    >
      <RadixSelect.Trigger
        id={id}
        className={`input ui-select-trigger${size === 'small' ? ' ui-select-small' : ''}`}
        title={title}
        aria-label={ariaLabel}
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
      >
        <span className="ui-select-value">
          <RadixSelect.Value />
        </span>
        <RadixSelect.Icon className="ui-select-icon">
          <IconChevronDown />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content className="ui-popover ui-select-content" position="popper" sideOffset={4}>
          <RadixSelect.Viewport className="ui-select-viewport">
            {options.map((option) => (
              <RadixSelect.Item
                key={option.value}
                value={toRadix(option.value)}
                lang={option.lang}
                className="ui-option"
              >
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
                <RadixSelect.ItemIndicator className="ui-option-check">
                  <IconCheck />
                </RadixSelect.ItemIndicator>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
