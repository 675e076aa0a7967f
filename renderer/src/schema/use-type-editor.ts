import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ContentTypeSummary, LastChange } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { ApiError, describeError } from '../api/api-error.js';
import { useChanges } from '../api/change-events.js';
import { useToast } from '../components/toasts.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useT } from '../i18n/use-t.js';
import {
  createRequest,
  type DraftChange,
  draftChanges,
  draftFromType,
  isDraftDirty,
  reapplyDraft,
  type TypeDraft,
  updateRequest,
} from './type-draft.js';
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

/** A save or delete refused because someone else changed or deleted the type after it was opened. */
export interface TypeConflict {
  /** The type as it is now, with its version (null: deleted). */
  current: ContentTypeSummary | null;
  lastChange: LastChange | null;
}

/** This person's draft, kept aside when they load someone else's version of the type. */
export interface KeptDraft {
  /** What it changed against the type as it was opened. */
  changes: DraftChange[];
  /** Whether it is already re-applied over their version. */
  reapplied: boolean;
}

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
  conflict: TypeConflict | null;
  kept: KeptDraft | null;
  /** Loads the other person's version; this person's unsaved changes stay listed in `kept`. */
  reload(): void;
  /** Applies the kept changes over the version now loaded (saving them is up to this person). */
  reapply(): void;
  dismissKept(): void;
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
  const { types, typeSaved, typeDeleted } = useContentTypes();
  const [saved, setSaved] = useState(type);
  const [savedDraft, setSavedDraft] = useState(() => draftFromType(type));
  const [draft, setDraft] = useState(savedDraft);
  const [errors, setErrors] = useState<TypeErrors>(NO_TYPE_ERRORS);
  const [taken, setTaken] = useState<TakenName | null>(null);
  const [banner, setBanner] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [conflict, setConflict] = useState<TypeConflict | null>(null);
  const [aside, setAside] = useState<{ mine: TypeDraft; base: TypeDraft; kept: KeptDraft } | null>(null);
  const busy = useRef(false);
  const dirty = useMemo(() => isDraftDirty(draft, savedDraft), [draft, savedDraft]);
  /** Who changed this type last and when, as the change feed told it while the editor was open. */
  const heard = useRef<LastChange | null>(null);
  useChanges((change) => {
    if (change.action === 'type_change' && saved && change.type === saved.table)
      heard.current = { action: 'update', by: change.by, at: change.at, fields: [] };
  });

  // The types list follows changes made elsewhere (content-types.tsx). When it holds another
  // version of this type, an untouched form loads it; one with edits says so, as a refused save
  // would, so nobody goes on editing a version that is gone.
  useEffect(() => {
    if (!types || !saved || busy.current || conflict) return;
    const now = types.find((type) => type.content_type_id === saved.content_type_id) ?? null;
    if (now?.version === saved.version) return;
    if (now && !dirty) {
      const next = draftFromType(now);
      setSaved(now);
      setSavedDraft(next);
      setDraft(next);
      return;
    }
    setConflict({ current: now, lastChange: heard.current });
  }, [types, saved, dirty, conflict]);

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
        ? await api.updateContentType(saved.slug, updateRequest(sent), saved.version)
        : await api.createContentType(createRequest(sent));
      typeSaved(result);
      const next = draftFromType(result);
      setSaved(result);
      setSavedDraft(next);
      // Edits made while the save was in flight stay (and stay unsaved).
      setDraft((current) => (current === sent ? next : current));
      setErrors(NO_TYPE_ERRORS);
      setTaken(null);
      setConflict(null);
      notify('success', t(saved ? 'editor.saved' : 'editor.created', { title: result.title }));
      return result;
    } catch (error) {
      if (refusedAsStale(error, setConflict)) {
        setErrors(NO_TYPE_ERRORS);
        return null;
      }
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
        await api.deleteContentType(saved.slug, { force, ifMatch: saved.version });
        notify('success', t('editor.deleted', { title: saved.title }));
        leave();
        typeDeleted(saved.slug);
        return true;
      } catch (error) {
        if (!refusedAsStale(error, setConflict)) setBanner(t('editor.notDeleted', { reason: describeError(error) }));
        return false;
      } finally {
        busy.current = false;
        setDeleting(false);
      }
    },
    [api, notify, saved, typeDeleted, t],
  );

  const reload = useCallback(() => {
    const theirs = conflict?.current;
    if (!theirs) return;
    const next = draftFromType(theirs);
    const changes = draftChanges(draft, savedDraft);
    setAside(changes.length > 0 ? { mine: draft, base: savedDraft, kept: { changes, reapplied: false } } : null);
    setSaved(theirs);
    setSavedDraft(next);
    setDraft(next);
    setConflict(null);
    setBanner(null);
    typeSaved(theirs);
  }, [conflict, draft, savedDraft, typeSaved]);

  const reapply = useCallback(() => {
    if (!aside || aside.kept.reapplied) return;
    setDraft((theirs) => reapplyDraft(aside.mine, aside.base, theirs));
    setAside({ ...aside, kept: { ...aside.kept, reapplied: true } });
  }, [aside]);

  return {
    saved,
    draft,
    dirty,
    saving,
    deleting,
    errors,
    taken,
    banner,
    conflict,
    kept: aside?.kept ?? null,
    reload,
    reapply,
    dismissKept: () => setAside(null),
    update,
    save,
    remove,
    dismissBanner: () => setBanner(null),
  };
}

/** Whether `error` is a `stale_write`; if so, `show` gets the type as it is now and its last change. */
function refusedAsStale(error: unknown, show: (conflict: TypeConflict) => void): boolean {
  if (!(error instanceof ApiError) || !error.stale) return false;
  const { current, etag, lastChange } = error.stale;
  const now = current as ContentTypeSummary | null;
  show({ current: now ? { ...now, ...(etag ? { version: etag } : {}) } : null, lastChange });
  return true;
}
