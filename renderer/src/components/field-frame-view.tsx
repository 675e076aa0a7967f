import type { ReactNode } from 'react';
import type { ColumnDescriptor } from '../../../common/api-contract.js';
import type { DerivedState, FieldWidget, FormValue } from '../fields/field-types.js';
import { useT } from '../i18n/use-t.js';

/** Props of one form field. */
export interface FieldFrameProps {
  column: ColumnDescriptor;
  value: FormValue;
  onChange(value: FormValue): void;
  error: string | undefined;
  /** The server's problems inside the value (a block's fields), keyed by their path relative to it (`[2].image`). */
  problems?: Readonly<Record<string, string>>;
  derived?: DerivedState;
  /**
   * A picture of the field rather than a field (the content-type editor's form preview): the label
   * is plain text and ids are prefixed, so the page's own labels and ids stay unique.
   */
  preview?: boolean;
  /** The input's DOM id, where `fieldId(column.name)` would not be unique (a field inside a block). */
  id?: string;
  /** Said after the label (the locale a translatable field shows), and describing the input. */
  marks?: ReactNode;
  /** Shown in an empty text input (the value a translatable field falls back to). */
  placeholder?: string;
}

/** The input's DOM id for a column (so error summaries can focus it). */
export const fieldId = (name: string) => `field-${name}`;

/**
 * One form field drawn with a given widget: `<label>` with exactly the column's label (the
 * required mark sits outside it), the widget's input, a hint, and the server's problem with it.
 */
export function FieldFrameView({
  widget,
  column,
  value,
  onChange,
  error,
  problems,
  derived,
  preview = false,
  id: givenId,
  marks,
  placeholder,
}: FieldFrameProps & { widget: FieldWidget }) {
  const id = givenId ?? (preview ? `preview-${fieldId(column.name)}` : fieldId(column.name));
  const hint = widget.hint?.(column, derived);
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const marksId = marks ? `${id}-marks` : undefined;
  const describedBy = [errorId, hintId, marksId].filter(Boolean).join(' ') || undefined;
  const Input = widget.Input;
  const t = useT('components');
  return (
    <div
      className={`field field-${column.type}${widget.compact ? ' field-compact' : ''}`}
      data-invalid={error ? 'true' : undefined}
    >
      <div className="field-label-row">
        {preview ? (
          <span className="label">{column.label}</span>
        ) : (
          <label htmlFor={id} className="label">
            {column.label}
          </label>
        )}
        {column.required && (
          <span className="required-mark" title={t('field.required')} aria-hidden="true">
            *
          </span>
        )}
        {marks && (
          <span id={marksId} className="field-marks">
            {marks}
          </span>
        )}
      </div>
      <Input
        column={column}
        id={id}
        value={value}
        onChange={onChange}
        describedBy={describedBy}
        invalid={!!error}
        problems={problems}
        derived={derived}
        placeholder={placeholder}
      />
      {error && (
        <p id={errorId} className="field-error">
          {column.label} {error}
        </p>
      )}
      {hint && !error && (
        <p id={hintId} className="field-hint">
          {hint}
        </p>
      )}
    </div>
  );
}
