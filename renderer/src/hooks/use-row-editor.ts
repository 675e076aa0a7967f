import { useCallback, useMemo, useRef, useState } from 'react';
import type { ContentRow, ContentTypeSummary, LastChange, RowReference } from '../../../common/api-contract.js';
import type { MetaKey } from '../../../common/row-fields.js';
import { useApi } from '../api/api-context.js';
import { ApiError, describeError } from '../api/api-error.js';
import { fieldId } from '../components/field-frame.js';
import { useToast } from '../components/toasts.js';
import { type ConflictChoice, type ConflictField, conflictFields, resolveConflict } from '../fields/conflict-merge.js';
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
import type { LocaleView } from '../translation/locale-view.js';
import { useContentTypes } from './content-types.js';

/** An entity tag no version has: sent when the version the form holds is not known, it meets a conflict. */
const UNKNOWN_VERSION = '""';

const NO_ERRORS: PlacedErrors = { columns: {}, inside: {}, meta: {}, other: [] };

/** A save that met someone else's: their version (null: they deleted the row) beside this person's. */
export interface RowConflict {
  /** The fields either person changed since this person opened the row. */
  fields: readonly ConflictField[];
  lastChange: LastChange | null;
  deleted: boolean;
  /** This person's form when the save met theirs. */
  mine: FormState;
}

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
  /** A save that met someone else's since the row was opened, until it is resolved or set aside. */
  conflict: RowConflict | null;
  label: string;
  change(name: string, value: FormValue): void;
  regenerate(name: string): void;
  changeMeta(key: MetaKey, value: string): void;
  /** Saves; resolves to the saved row, or null when the save failed (the form shows why). */
  save(): Promise<ContentRow | null>;
  /** Deletes the row; resolves to whether it is gone. */
  remove(): Promise<boolean>;
  /** Takes each conflicting field from their version or this person's, then saves over theirs. */
  resolveConflict(choices: Readonly<Record<string, ConflictChoice>>): Promise<ContentRow | null>;
  /** Closes the conflict; the form keeps this person's edits (the next save meets theirs again). */
  setConflictAside(): void;
  dismissBanner(): void;
}

/**
 * State and actions of the row form: field edits with slug following, dirty tracking against the
 * saved row, saving (create or update with only the changed fields), deleting, and placing the
 * server's field problems next to their fields. Every update and delete sends `If-Match` with the
 * ETag of the version the form builds on (`initialTag`, then each save's), so a save never
 * overwrites someone else's: it meets it as a conflict instead. With `locale`, the row is read and
 * written in its locale, and a field that falls back starts empty.
 */
export function useRowEditor(
  type: ContentTypeSummary,
  initialRow: ContentRow | null,
  initialTag: string | null = null,
  locale?: Pick<LocaleView, 'code' | 'own' | 'labelOf'>,
): RowEditor {
  const code = locale?.code;
  const api = useApi();
  const t = useT('pages-row');
  const titleColumn = type.title_column;
  const notify = useToast();
  const { rowsChanged } = useContentTypes();
  const columns = type.columns;
  const [row, setRow] = useState(initialRow);
  const formOf = useCallback(
    (row: ContentRow | null) => initialFormState(columns, row && locale ? locale.own(row) : row, new Date()),
    [columns, locale],
  );
  const [saved, setSaved] = useState(() => formOf(initialRow));
  const [state, setState] = useState(saved);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [errors, setErrors] = useState<PlacedErrors>(NO_ERRORS);
  const [banner, setBanner] = useState<string | null>(null);
  const [references, setReferences] = useState<readonly RowReference[]>([]);
  const [conflict, setConflict] = useState<RowConflict | null>(null);
  const busy = useRef(false);
  // The ETag of the version `saved` holds; null when unknown (a row this form created).
  const tag = useRef<string | null>(initialTag);
  // The version stored now, as the last conflict reported it (what resolving builds on).
  const stored = useRef<{ row: ContentRow; form: FormState; etag: string | null } | null>(null);

  const dirty = useMemo(() => isDirty(state, saved, columns), [state, saved, columns]);
  // In a locale, a title that falls back (empty in the form) names the row by the value it falls back to.
  const label = rowLabel(
    titleColumn,
    state.values,
    row ? rowLabel(titleColumn, locale ? row : {}, t('untitled')) : t('newRow'),
  );

  const clearError = useCallback((name: string) => {
    setErrors((current) => {
      if (!(name in current.columns)) return current;
      const { [name]: _cleared, ...rest } = current.columns;
      return { ...current, columns: rest };
    });
  }, []);

  /** The ETag to send for `current`: the one held, else the row's read when it is still `current`'s version. */
  const tagFor = useCallback(
    async (current: ContentRow): Promise<string> => {
      if (tag.current !== null) return tag.current;
      const read = await api.getRow(type.table, current.id, undefined, code);
      // A version other than the one the form holds (or none known) can only meet a conflict.
      return read.etag && read.rows[0]?.updated_at === current.updated_at ? read.etag : UNKNOWN_VERSION;
    },
    [api, type.table, code],
  );

  const persist = useCallback(
    async (state: FormState, saved: FormState, row: ContentRow | null): Promise<ContentRow | null> => {
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
        let result: ContentRow;
        if (row) {
          const written = await api.updateRow(type.table, row.id, body, await tagFor(row), code);
          result = written.row;
          tag.current = written.etag;
        } else if (type.type === 'single') {
          // A single type's one row is written at the type's address: the first save creates it.
          const written = await api.updateRow(type.table, null, body, undefined, code);
          result = written.row;
          tag.current = written.etag;
        } else {
          // Named only when there is one, so a create elsewhere is the request it always was.
          const inLocale: [] | [string] = code === undefined ? [] : [code];
          result = (await api.createRow(type.table, body, ...inLocale)).rows[0];
          tag.current = null;
        }
        const next = formOf(result);
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
        if (error instanceof ApiError && error.stale && row) {
          const theirs = error.stale.current as ContentRow | null;
          const theirsForm = theirs ? formOf(theirs) : saved;
          setConflict({
            fields: conflictFields(columns, saved, theirsForm, state),
            lastChange: error.stale.lastChange,
            deleted: theirs === null,
            mine: state,
          });
          if (theirs) stored.current = { row: theirs, form: theirsForm, etag: error.stale.etag };
          setBanner(t('stale.notSaved'));
          return null;
        }
        const placed =
          error instanceof ApiError ? placeFieldErrors(error.fieldsIn(locale?.labelOf), columns) : NO_ERRORS;
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
    },
    [api, code, columns, formOf, locale?.labelOf, notify, rowsChanged, tagFor, type.table, type.type, titleColumn, t],
  );

  const save = useCallback(() => persist(state, saved, row), [persist, state, saved, row]);

  const resolve = useCallback(
    async (choices: Readonly<Record<string, ConflictChoice>>): Promise<ContentRow | null> => {
      const theirs = stored.current;
      if (!conflict || conflict.deleted || !theirs) return null;
      const next = resolveConflict(conflict.fields, theirs.form, conflict.mine, choices);
      // The form now builds on their version: saving writes the fields kept from mine over it.
      tag.current = theirs.etag ?? UNKNOWN_VERSION;
      setRow(theirs.row);
      setSaved(theirs.form);
      setState(next);
      setConflict(null);
      setBanner(null);
      return persist(next, theirs.form, theirs.row);
    },
    [conflict, persist],
  );

  const remove = useCallback(async (): Promise<boolean> => {
    if (!row || busy.current) return false;
    busy.current = true;
    setDeleting(true);
    try {
      await api.deleteRow(type.table, row.id, await tagFor(row));
      notify('success', t('deleted', { title: rowLabel(titleColumn, row, t('row')) }));
      rowsChanged(type.table, true);
      return true;
    } catch (error) {
      const used = error instanceof ApiError ? error.references : [];
      setReferences(used);
      const who = error instanceof ApiError ? error.stale?.lastChange?.by : undefined;
      setBanner(
        used.length > 0
          ? t('stillUsed', { title: rowLabel(titleColumn, row, t('thisRow')), count: used.length })
          : error instanceof ApiError && error.stale
            ? who
              ? t('stale.notDeleted', { name: who })
              : t('stale.notDeletedBySomeone')
            : t('notDeleted', { reason: describeError(error) }),
      );
      return false;
    } finally {
      busy.current = false;
      setDeleting(false);
    }
  }, [api, notify, row, rowsChanged, tagFor, type.table, titleColumn, t]);

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
    conflict,
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
    resolveConflict: resolve,
    setConflictAside: () => setConflict(null),
    dismissBanner: () => {
      setBanner(null);
      setReferences([]);
    },
  };
}
