import type { ReactNode } from 'react';
import type { ColumnDescriptor, ContentRow } from '../../../common/api-contract.js';

/**
 * How the row editor and the list show a type with translatable fields in one of the site's
 * locales. The pages take it from the localized pages (a chunk of their own, see in-locale.tsx),
 * so a site or a type without translations loads none of it.
 */

/** What a field of the row form shows for its locale. */
export interface FieldLocaleParts {
  /** After the label: the locale the field shows, and where a value that falls back comes from. */
  marks?: ReactNode;
  /** In an empty input: the value the field falls back to. */
  placeholder?: string;
  /** Before the field (side by side): its value in the source locale. */
  beside?: ReactNode;
  /** The field may be left empty here: a required field is required in the default locale only. */
  optional?: boolean;
}

/** A page in one locale. */
export interface LocaleView {
  /** The locale code rows are read and written in. */
  code: string;
  /** A locale's name as the site lists it (its code when the site no longer does). */
  labelOf(code: string): string;
  /** The list: the locale whose missing values it is narrowed to (null: not narrowed). */
  missing: string | null;
  /**
   * The locale switcher, in the page's header or toolbar: on the row editor (`dirty`: the form has
   * unsaved edits) with the side-by-side controls, on the list (`setFilters` sets its filters)
   * with the "missing in" filter.
   */
  controls(dirty: boolean, setFilters?: (filters: Record<string, string>) => void): ReactNode;
  /** The row editor: what a field shows, given the saved row as the locale reads it (null: a new row). */
  field(column: ColumnDescriptor, row: ContentRow | null): FieldLocaleParts | undefined;
  /** The row as the form edits it: a field that falls back is empty, so a save never copies it over. */
  own(row: ContentRow): ContentRow;
}
