import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { FormBanner } from '../components/form-banner.js';
import { IconArrowLeft, IconCollection, IconPlus, IconSave, IconTrash } from '../components/icons.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useSaveShortcut } from '../hooks/use-save-shortcut.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps, useNavigate, useNavigationBlocker } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { DeleteTypeDialog } from '../schema/delete-type-dialog.js';
import { FieldEditor, fieldEditorId } from '../schema/field-editor.js';
import { FormPreview } from '../schema/form-preview.js';
import { KeptChangesNotice, TypeConflictNotice } from '../schema/type-conflict-notice.js';
import { addField, changeField, moveField, newField, removeField } from '../schema/type-draft.js';
import { TypeSettings } from '../schema/type-settings.js';
import { useTypeEditor } from '../schema/use-type-editor.js';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/**
 * A content type's schema (or a new type's): its title, slug, table and preview path, its fields
 * (add, remove, reorder, relabel, rename, type, required, options, slug source, relation target),
 * and a live preview of the row form they make. Saves with POST or PUT; deletes the type.
 */
export function ContentTypeEditorPage({ type }: { type: ContentTypeSummary | null }) {
  const navigate = useNavigate();
  const t = useT('pages-types');
  const { types } = useContentTypes();
  const editor = useTypeEditor(type);
  const { draft, saved } = editor;
  const [removing, setRemoving] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const focusAfter = useRef<string | null>(null);
  const listHref = routeHref({ name: 'content-types' });
  const backLink = useLinkProps(listHref);
  const rowsLink = useLinkProps(
    saved ? routeHref({ name: 'list', type: saved.table, list: EMPTY_LIST_STATE }) : listHref,
  );
  useNavigationBlocker(editor.dirty);
  useDocumentTitle(saved ? saved.title : t('list.new'), t('list.title'));

  // After adding or moving a field, the cursor goes to the new field or stays on the moved button.
  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  const targets = [
    ...(types ?? []).map((candidate) => ({ slug: candidate.slug, title: candidate.title })),
    ...(!saved && draft.slug
      ? [{ slug: draft.slug, title: t('editor.thisType', { title: draft.title.trim() || t('editor.thisTypeName') }) }]
      : []),
  ];

  const save = async () => {
    const wasNew = saved === null;
    const result = await editor.save();
    if (result && wasNew) {
      navigate(routeHref({ name: 'content-type', slug: result.slug }), { replace: true, force: true });
    }
  };
  useSaveShortcut(() => void save());
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void save();
  };
  const remove = (key: string) => {
    const field = draft.fields.find((candidate) => candidate.key === key);
    // A field that is not saved yet holds no data: it goes without asking.
    if (field?.original) setRemoving(key);
    else editor.update((current) => removeField(current, key));
  };
  const removingField = draft.fields.find((field) => field.key === removing);
  const shortcut = isMac ? '⌘S' : 'Ctrl+S';

  return (
    <div className="page page-editor page-schema">
      <header className="page-header editor-header">
        <div className="page-heading">
          <a {...backLink} className="back-link">
            <IconArrowLeft />
            {t('editor.back')}
          </a>
          <p className="eyebrow">
            {t('list.title')} · {saved ? t('editor.editType') : t('editor.newType')}
          </p>
          <h1 className="page-title page-title-row">{draft.title.trim() || saved?.title || t('list.new')}</h1>
        </div>
        <div className="page-actions">
          <span className={editor.dirty ? 'save-state is-dirty' : 'save-state'} aria-live="polite">
            {editor.saving
              ? t('common:actions.saving')
              : editor.dirty
                ? t('editor.unsaved')
                : saved
                  ? t('editor.allSaved')
                  : ''}
          </span>
          {saved && (
            <a {...rowsLink} className="button button-ghost">
              <IconCollection />
              {t('editor.openRows')}
            </a>
          )}
          {saved && (
            <button
              type="button"
              className="button button-danger-quiet"
              onClick={() => setDeleting(true)}
              disabled={editor.saving || editor.deleting}
            >
              <IconTrash />
              {t('editor.delete')}
            </button>
          )}
          <button
            type="submit"
            form="schema-form"
            className="button button-primary"
            disabled={editor.saving}
            aria-busy={editor.saving || undefined}
            title={t('editor.saveTitle', { shortcut })}
          >
            <IconSave />
            {t('editor.save')}
          </button>
        </div>
      </header>

      <form id="schema-form" className="schema-layout" onSubmit={onSubmit} noValidate data-schema-form>
        <div className="schema-main">
          <TypeConflictNotice editor={editor} />
          <KeptChangesNotice editor={editor} />
          {editor.banner && (
            <FormBanner message={editor.banner} problems={editor.errors.other} onDismiss={editor.dismissBanner} />
          )}
          <TypeSettings editor={editor} />
          <section className="card schema-card" aria-labelledby="fields-heading">
            <header className="card-header">
              <div>
                <h2 id="fields-heading" className="card-title">
                  {t('list.columns.fields')}
                </h2>
                <p className="card-subtitle">{t('editor.fieldsSubtitle', { count: draft.fields.length })}</p>
              </div>
            </header>
            <ol className="field-list">
              {draft.fields.map((field, index) => (
                <FieldEditor
                  key={field.key}
                  field={field}
                  index={index}
                  count={draft.fields.length}
                  errors={editor.errors.fields[field.key] ?? {}}
                  others={draft.fields.filter((other) => other.key !== field.key)}
                  targets={targets}
                  onChange={(patch, part) =>
                    editor.update(
                      (current) =>
                        changeField(
                          current,
                          field.key,
                          patch,
                          targets.map((target) => target.slug),
                        ),
                      { field: field.key, part },
                    )
                  }
                  onMove={(delta) => {
                    focusAfter.current = `${fieldEditorId(field.key)}-${delta < 0 ? 'up' : 'down'}`;
                    editor.update((current) => moveField(current, field.key, delta));
                  }}
                  onRemove={() => remove(field.key)}
                  markNew={saved !== null}
                />
              ))}
            </ol>
            <button
              type="button"
              className="button add-field"
              onClick={() => {
                const field = newField();
                focusAfter.current = `${fieldEditorId(field.key)}-label`;
                editor.update((current) => addField(current, field));
              }}
            >
              <IconPlus />
              {t('editor.addField')}
            </button>
          </section>
        </div>
        {/* The preview is inert and scrolls on its own: focusable, so the keyboard scrolls it too. */}
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region is reached by Tab to be scrolled */}
        <aside className="schema-side" tabIndex={0} aria-labelledby="form-preview-heading">
          <FormPreview fields={draft.fields} />
        </aside>
      </form>

      {removingField && (
        <ConfirmDialog
          title={t('editor.removeTitle', { label: removingField.label.trim() || removingField.name })}
          confirmLabel={t('editor.removeConfirm')}
          onConfirm={() => {
            editor.update((current) => removeField(current, removingField.key));
            setRemoving(null);
          }}
          onCancel={() => setRemoving(null)}
        >
          <p>
            <Trans
              t={t}
              i18nKey="editor.removeBody"
              values={{ column: removingField.original?.name ?? '', type: saved?.title ?? '' }}
              components={{ code: <code /> }}
            />
          </p>
        </ConfirmDialog>
      )}
      {deleting && saved && (
        <DeleteTypeDialog
          type={saved}
          busy={editor.deleting}
          onConfirm={async (force) => {
            const gone = await editor.remove(force, () => navigate(listHref, { force: true }));
            if (!gone) setDeleting(false);
          }}
          onCancel={() => setDeleting(false)}
        />
      )}
    </div>
  );
}
