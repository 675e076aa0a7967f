import type { ComponentType } from 'react';
import type { ColumnDescriptor } from '../../../common/api-contract.js';

/**
 * A field's value while it is edited. Text-like widgets hold strings ('' = empty), `number` the
 * text typed, `boolean` a boolean, `tags` a string array, `relation` a RelationValue or null; the
 * text fallback keeps values it cannot edit (arrays, objects) as they came.
 */
export type FormValue = unknown;

/** What a derived field (a slug) knows about its source while the form is edited. */
export interface DerivedState {
  /** Whether the value still follows its source as the user types. */
  following: boolean;
  /** Label of the column it is derived from. */
  sourceLabel: string;
  /** Sets the value from the source again and resumes following. */
  regenerate(): void;
}

/** Props of a field's input widget. The surrounding FieldFrame renders the label, hint and error. */
export interface FieldInputProps {
  column: ColumnDescriptor;
  /** id of the input element; the frame's `<label for>` points at it. */
  id: string;
  value: FormValue;
  onChange(value: FormValue): void;
  /** ids of the hint and error elements, for aria-describedby. */
  describedBy: string | undefined;
  invalid: boolean;
  /** The server's problems inside the value (a block's fields), keyed by their path relative to it (`[2].image`). */
  problems?: Readonly<Record<string, string>>;
  /** Present for derived fields. */
  derived?: DerivedState;
  /** Shown while a text input is empty (the value a translatable field falls back to). */
  placeholder?: string;
}

/** Props of a field's list cell. */
export interface FieldCellProps {
  column: ColumnDescriptor;
  value: unknown;
}

/**
 * Everything the editor knows about one column type: its input widget, its list cell, and how its
 * values move between the API, the form and a write body. One entry per type in the field registry.
 */
export interface FieldWidget {
  /** What the content-type editor calls the type in its "Field type" list (`Long text`), in the editor's language. */
  typeName(): string;
  Input: ComponentType<FieldInputProps>;
  Cell: ComponentType<FieldCellProps>;
  /** Value of the field on a new row. */
  initial(column: ColumnDescriptor, now: Date): FormValue;
  /** Form value from the row's JSON value. */
  fromRow(value: unknown, column: ColumnDescriptor): FormValue;
  /** Write-body value of a form value (null clears the field). */
  toBody(value: FormValue, column: ColumnDescriptor): unknown;
  /** Whether a value can be edited and sent back (the fallback keeps arrays and objects read-only). */
  editable(value: FormValue): boolean;
  /** Whether the list shows a column of this type. */
  listable: boolean;
  /**
   * When the list has room for only some columns, lower ranks win (the title column always shows);
   * 2 unless given. Ties keep the descriptor order.
   */
  listRank?: number;
  /** Whether the list offers sorting by the column (false where the order would look random). */
  sortable?: boolean;
  /** Whether the field takes half a row of the form (short inputs sit side by side). */
  compact?: boolean;
  /** For derived types: the column the value follows, and how it is computed from it. */
  derive?: {
    sourceOf(column: ColumnDescriptor): string | undefined;
    compute(source: FormValue): FormValue;
  };
  /** A short hint under the input, if the type has one. */
  hint?(column: ColumnDescriptor, derived: DerivedState | undefined): string | undefined;
}
