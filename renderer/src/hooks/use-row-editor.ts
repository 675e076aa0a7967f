import { useCallback, useMemo, useRef, useState } from 'react';
import type { ContentRow, ContentTypeSummary, RowReference } from '../../../common/api-contract.js';
import type { MetaKey } from '../../../common/row-fields.js';
import { useApi } from '../api/api-context.js';
import { ApiError, describeError } from '../api/api-error.js';
import { fieldId } from '../components/field-frame.js';
import { useToast } from '../components/toasts.js';
import type { FormValue } from '../fields/field-types.js';
import {
  buildWriteBody,
  changeField,
  changeMeta,
  type FormState,
  initialFormState,
  isDirty,
  type PlacedErrors,
  placeFieldErrors,
  regenerateField,
} from '../fields/form-state.js';
import { useT } from '../i18n/use-t.js';
import { rowLabel } from '../schema/type-facts.js';
import { useContentTypes } from './content-types.js';

const NO_ERRORS: PlacedErrors = { columns: {}, meta: {}, other: [] };

/** What the row editor shows and does. */
export interface RowEditor {
  state: FormState;
  saved: FormState;
  /** The saved row (null until a new row is first saved). */
  row: ContentRow | null;
  dirty: boolean;
  saving: boolean;
  deleting: boolean;
  errors: PlacedErrors;
  /** A failure that belongs to no field, as a sentence. */
  banner: string | null;
  /** After a refused delete: the rows that still point at this one. */
  references: readonly RowReference[];
  label: string;
  change(name: string, value: FormValue): void;
  regenerate(name: string): void;
  changeMeta(key: MetaKey, value: string): void;
  /** Saves; resolves to the saved row, or null when the save failed (the form shows why). */
  save(): Promise<ContentRow | null>;
  /** Deletes the row; resolves to whether it is gone. */
  remove(): Promise<boolean>;
  dismissBanner(): void;
}

/**
 * State and actions of the row form: field edits with slug following, dirty tracking against the
 * saved row, saving (create or update with only the changed fields), deleting, and placing the
 * server's field problems next to their fields.
 */
export function useRowEditor(type: ContentTypeSummary, initialRow: ContentRow | null): RowEditor {
  const api = useApi();
  const t = useT('pages-row');
  const titleColumn = type.title_column;
  const notify = useToast();
  const { rowsChanged } = useContentTypes();
  const columns = type.columns;
  const [row, setRow] = useState(initialRow);
  const [saved, setSaved] = useState(() => initialFormState(columns, initialRow, new Date()));
  const [state, setState] = useState(saved);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [errors, setErrors] = useState<PlacedErrors>(NO_ERRORS);
  const [banner, setBanner] = useState<string | null>(null);
  const [references, setReferences] = useState<readonly RowReference[]>([]);
  const busy = useRef(false);

  const dirty = useMemo(() => isDirty(state, saved, columns), [state, saved, columns]);
  const label = rowLabel(titleColumn, state.values, row ? t('untitled') : t('newRow'));

  const clearError = useCallback((name: string) => {
    setErrors((current) => {
      if (!(name in current.columns)) return current;
      const { [name]: _cleared, ...rest } = current.columns;
      return { ...current, columns: rest };
    });
  }, []);

  const save = useCallback(async (): Promise<ContentRow | null> => {
    if (busy.current) return null;
    const mode = row ? 'update' : 'create';
    const body = buildWriteBody(state, saved, columns, mode);
    if (mode === 'update' && Object.keys(body).length === 0) {
      notify('success', t('alreadySaved'));
      return row;
    }
    busy.current = true;
    setSaving(true);
    setBanner(null);
    setReferences([]);
    try {
      const result = row
        ? await api.updateRow(type.table, row.id, body)
        : (await api.createRow(type.table, body)).rows[0];
      const next = initialFormState(columns, result, new Date());
      setRow(result);
      setSaved(next);
      // Keystrokes made while the save was in flight stay (and stay unsaved).
      setState((current) => (current === state ? next : current));
      setErrors(NO_ERRORS);
      notify(
        'success',
        mode === 'create' ? t('created', { title: rowLabel(titleColumn, result, t('row')) }) : t('saved'),
      );
      // Lists (also other types' relation titles) may show this row; a new one also changes the count.
      rowsChanged(type.table, mode === 'create');
      return result;
    } catch (error) {
      const placed = error instanceof ApiError ? placeFieldErrors(error.fields, columns) : NO_ERRORS;
      setErrors(placed);
      const fieldCount = Object.keys(placed.columns).length + Object.keys(placed.meta).length;
      if (fieldCount > 0 && placed.other.length === 0) {
        setBanner(t('fixFields', { count: fieldCount }));
      } else if (error instanceof ApiError && error.code === 'not_found' && row) {
        setBanner(t('gone'));
      } else {
        setBanner(t('notSaved', { reason: describeError(error) }));
      }
      const first = Object.keys(placed.columns)[0];
      const firstMeta = Object.keys(placed.meta)[0];
      window.requestAnimationFrame(() => {
        const target = first ? fieldId(first) : firstMeta ? `meta-${firstMeta}` : null;
        if (target) document.getElementById(target)?.focus();
      });
      return null;
    } finally {
      busy.current = false;
      setSaving(false);
    }
  }, [api, columns, notify, row, rowsChanged, saved, state, type.table, titleColumn, t]);

  const remove = useCallback(async (): Promise<boolean> => {
    if (!row || busy.current) return false;
    busy.current = true;
    setDeleting(true);
    try {
      await api.deleteRow(type.table, row.id);
      notify('success', t('deleted', { title: rowLabel(titleColumn, row, t('row')) }));
      rowsChanged(type.table, true);
      return true;
    } catch (error) {
      const used = error instanceof ApiError ? error.references : [];
      setReferences(used);
      setBanner(
        used.length > 0
          ? t('stillUsed', { title: rowLabel(titleColumn, row, t('thisRow')), count: used.length })
          : t('notDeleted', { reason: describeError(error) }),
      );
      return false;
    } finally {
      busy.current = false;
      setDeleting(false);
    }
  }, [api, notify, row, rowsChanged, type.table, titleColumn, t]);

  return {
    state,
    saved,
    row,
    dirty,
    saving,
    deleting,
    errors,
    banner,
    references,
    label,
    change(name, value) {
      setState((current) => changeField(current, columns, name, value));
      clearError(name);
    },
    regenerate(name) {
      setState((current) => regenerateField(current, columns, name));
      clearError(name);
    },
    changeMeta(key, value) {
      setState((current) => changeMeta(current, key, value));
      setErrors((current) => {
        if (!(key in current.meta)) return current;
        const { [key]: _cleared, ...rest } = current.meta;
        return { ...current, meta: rest };
      });
    },
    save,
    remove,
    dismissBanner: () => {
      setBanner(null);
      setReferences([]);
    },
  };
}
