import { useCallback, useMemo, useRef, useState } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { ApiError, describeError } from '../api/api-error.js';
import { useToast } from '../components/toasts.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useT } from '../i18n/use-t.js';
import { createRequest, draftFromType, isDraftDirty, type TypeDraft, updateRequest } from './type-draft.js';
import {
  countTypeErrors,
  type FieldPart,
  NO_TYPE_ERRORS,
  placeTypeErrors,
  type TakenName,
  type TypeErrors,
  type TypePart,
  takenNameOf,
} from './type-errors.js';

/** What the content-type editor shows and does. */
export interface TypeEditor {
  /** The type as saved (null until a new type is first saved). */
  saved: ContentTypeSummary | null;
  draft: TypeDraft;
  dirty: boolean;
  saving: boolean;
  deleting: boolean;
  errors: TypeErrors;
  /** The type holding the slug or table a create was refused for, until the slug, table or title changes. */
  taken: TakenName | null;
  banner: string | null;
  /** Changes the draft; `clears` names the inputs whose problems the change answers. */
  update(change: (draft: TypeDraft) => TypeDraft, clears?: { type?: TypePart; field?: string; part?: FieldPart }): void;
  /** Saves; resolves to the type as the server has it now, or null when the save failed (the screen shows why). */
  save(): Promise<ContentTypeSummary | null>;
  /** Deletes the type (`force`: with its rows); `leave` moves off its screen before the editor forgets it. */
  remove(force: boolean, leave: () => void): Promise<boolean>;
  dismissBanner(): void;
}

/**
 * State and actions of the content-type editor: the draft, dirty tracking against the saved type,
 * create or update (with renames sent as `from`), delete, and the server's problems placed at the
 * inputs they are about.
 */
export function useTypeEditor(type: ContentTypeSummary | null): TypeEditor {
  const api = useApi();
  const t = useT('schema');
  const notify = useToast();
  const { typeSaved, typeDeleted } = useContentTypes();
  const [saved, setSaved] = useState(type);
  const [savedDraft, setSavedDraft] = useState(() => draftFromType(type));
  const [draft, setDraft] = useState(savedDraft);
  const [errors, setErrors] = useState<TypeErrors>(NO_TYPE_ERRORS);
  const [taken, setTaken] = useState<TakenName | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const busy = useRef(false);
  const dirty = useMemo(() => isDraftDirty(draft, savedDraft), [draft, savedDraft]);

  const update: TypeEditor['update'] = useCallback((change, clears) => {
    setDraft((current) => change(current));
    if (!clears) return;
    if (clears.type === 'slug' || clears.type === 'table' || clears.type === 'title') setTaken(null);
    setErrors((current) => {
      const next: TypeErrors = { ...current, type: { ...current.type }, fields: { ...current.fields } };
      if (clears.type) delete next.type[clears.type];
      if (clears.field) {
        const parts = { ...next.fields[clears.field] };
        if (clears.part) delete parts[clears.part];
        delete parts.general;
        next.fields[clears.field] = parts;
      }
      return next;
    });
  }, []);

  const save = useCallback(async (): Promise<ContentTypeSummary | null> => {
    if (busy.current) return null;
    // Checked here too: on an update the server's `title` problem could not be told from a column's.
    if (draft.title.trim() === '') {
      setErrors({ ...NO_TYPE_ERRORS, type: { title: t('editor.required') } });
      setBanner(t('editor.fix', { count: 1 }));
      document.getElementById('type-title')?.focus();
      return null;
    }
    busy.current = true;
    setSaving(true);
    setBanner(null);
    const sent = draft;
    try {
      const result = saved
        ? await api.updateContentType(saved.slug, updateRequest(sent))
        : await api.createContentType(createRequest(sent));
      typeSaved(result);
      const next = draftFromType(result);
      setSaved(result);
      setSavedDraft(next);
      // Edits made while the save was in flight stay (and stay unsaved).
      setDraft((current) => (current === sent ? next : current));
      setErrors(NO_TYPE_ERRORS);
      setTaken(null);
      notify('success', t(saved ? 'editor.saved' : 'editor.created', { title: result.title }));
      return result;
    } catch (error) {
      const placed =
        error instanceof ApiError
          ? placeTypeErrors(error.fields, sent.fields, saved ? 'update' : 'create')
          : NO_TYPE_ERRORS;
      setErrors(placed);
      setTaken(error instanceof ApiError ? takenNameOf(error.problems) : null);
      const marked = countTypeErrors(placed);
      if (marked > 0 && placed.other.length === 0) {
        setBanner(t('editor.fix', { count: marked }));
      } else {
        setBanner(t('editor.notSaved', { reason: describeError(error) }));
      }
      window.requestAnimationFrame(() =>
        document.querySelector<HTMLElement>('[data-schema-form] [aria-invalid="true"]')?.focus(),
      );
      return null;
    } finally {
      busy.current = false;
      setSaving(false);
    }
  }, [api, draft, notify, saved, typeSaved, t]);

  const remove = useCallback(
    async (force: boolean, leave: () => void): Promise<boolean> => {
      if (!saved || busy.current) return false;
      busy.current = true;
      setDeleting(true);
      try {
        await api.deleteContentType(saved.slug, { force });
        notify('success', t('editor.deleted', { title: saved.title }));
        leave();
        typeDeleted(saved.slug);
        return true;
      } catch (error) {
        setBanner(t('editor.notDeleted', { reason: describeError(error) }));
        return false;
      } finally {
        busy.current = false;
        setDeleting(false);
      }
    },
    [api, notify, saved, typeDeleted, t],
  );

  return {
    saved,
    draft,
    dirty,
    saving,
    deleting,
    errors,
    taken,
    banner,
    update,
    save,
    remove,
    dismissBanner: () => setBanner(null),
  };
}
