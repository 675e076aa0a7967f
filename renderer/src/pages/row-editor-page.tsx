import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import type { ContentRow, ContentTypeSummary } from '../../../common/api-contract.js';
import { shownColumns } from '../../../common/field-conditions.js';
import { useApi } from '../api/api-context.js';
import { describeError, isNotFound } from '../api/api-error.js';
import { mayChangeRow, useAuth } from '../api/auth-context.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { FieldFrame, fieldId } from '../components/field-frame.js';
import { FormBanner, ReadOnlyNote } from '../components/form-banner.js';
import { HistoryPanel } from '../components/history-panel.js';
import { IconArrowLeft, IconExternal, IconLock, IconPlus, IconSave, IconTrash } from '../components/icons.js';
import { LazyScreen, lazyNamed } from '../components/lazy-screen.js';
import { LiveRowNotice } from '../components/live-row-notice.js';
import { RowDetails } from '../components/row-details.js';
import { ScheduleControl, ScheduleNotice } from '../components/schedule-control.js';
import { SeoSection } from '../components/seo-section.js';
import { ErrorState, LoadingState } from '../components/states.js';
import { mineAsJson } from '../fields/conflict-merge.js';
import { asText } from '../fields/field-values.js';
import { forgetRows, queryKeys } from '../hooks/row-queries.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useRowEditor } from '../hooks/use-row-editor.js';
import { useSaveShortcut } from '../hooks/use-save-shortcut.js';
import { useT } from '../i18n/use-t.js';
import { previewHref } from '../routing/preview-path.js';
import { useLinkProps, useNavigate, useNavigationBlocker } from '../routing/router.js';
import { type ListState, routeHref } from '../routing/routes.js';
import { InLocale } from '../translation/in-locale.js';
import type { LocaleView } from '../translation/locale-view.js';

// A stale write is rare: the dialog that settles it, and its catalog, load when one happens.
const ConflictDialog = lazyNamed(() => import('../components/conflict-dialog.js'), 'ConflictDialog', ['conflicts']);

/** Props of the row editor: a saved row (`id`) or a new one (`id` null). */
export interface RowEditorPageProps {
  type: ContentTypeSummary;
  id: string | null;
  list: ListState;
}

/** The row editor, in a locale for a type with translatable fields (another locale: another form). */
export function RowEditorPage(props: RowEditorPageProps) {
  return <InLocale {...props} render={(locale) => <RowEditorLoad key={locale?.code} {...props} locale={locale} />} />;
}

/** Loads the row (or starts a new one) and shows its form; designed loading and not-found states. */
function RowEditorLoad({ type, id, list, locale }: RowEditorPageProps & { locale: LocaleView | null }) {
  const api = useApi();
  const t = useT('pages-row');
  // A row this page just created is already here; anything else is fetched.
  const [created, setCreated] = useState<ContentRow | null>(null);
  // A restored version replaces the form (a new key), starting from the row the restore wrote.
  const [restores, setRestores] = useState(0);
  const queries = useQueryClient();
  const onRestored = (row: ContentRow) => {
    // The restore's answer has no ETag: the form finds the version's when it next saves.
    queries.setQueryData(queryKeys.row(type.table, row.id, locale?.code), { row, etag: null });
    forgetRows(queries, type.table, false);
    setRestores((n) => n + 1);
  };
  const backLink = useLinkProps(routeHref({ name: 'list', type: type.table, list }));
  const { data, error, refetch } = useQuery({
    queryKey: queryKeys.row(type.table, id, locale?.code),
    // The row with the ETag its saves send in If-Match.
    queryFn:
      id === null
        ? skipToken
        : ({ signal }) =>
            api
              .getRow(type.table, id, signal, locale?.code)
              .then((answer) => ({ row: answer.rows[0], etag: answer.etag ?? null })),
    initialData: created && created.id === id ? { row: created, etag: null } : undefined,
    // The form starts from this answer and then holds the row itself: a later answer would not reach
    // it, and a later visit must read the row as it is then, so nothing is kept once the form closes.
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  const current = id === null ? null : (data?.row ?? null);

  if (id !== null && !current) {
    if (error) {
      return (
        <div className="page">
          <ErrorState
            title={isNotFound(error) ? t('missing.title') : t('openFailed')}
            message={isNotFound(error) ? t('missing.message', { type: type.title, id }) : describeError(error)}
            action={
              <>
                <a {...backLink} className="button">
                  {t('back')}
                </a>
                {!isNotFound(error) && (
                  <button type="button" className="button" onClick={() => void refetch()}>
                    {t('common:actions.tryAgain')}
                  </button>
                )}
              </>
            }
          />
        </div>
      );
    }
    return (
      <div className="page">
        <LoadingState label={t('loading')} />
      </div>
    );
  }
  return (
    <RowForm
      key={`${id ?? 'new'}:${restores}`}
      type={type}
      initialRow={current}
      initialTag={id === null ? null : (data?.etag ?? null)}
      list={list}
      onCreated={setCreated}
      onRestored={onRestored}
      locale={locale}
    />
  );
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

function RowForm({
  type,
  initialRow,
  initialTag,
  list,
  onCreated,
  onRestored,
  locale,
}: {
  type: ContentTypeSummary;
  initialRow: ContentRow | null;
  /** The ETag of `initialRow`'s read (null: not known). */
  initialTag: string | null;
  list: ListState;
  onCreated(row: ContentRow): void;
  onRestored(row: ContentRow): void;
  locale: LocaleView | null;
}) {
  const navigate = useNavigate();
  const t = useT('pages-row');
  const { me } = useAuth();
  const editor = useRowEditor(type, initialRow, initialTag, locale ?? undefined);
  // A row this person may not change is read-only: its fields disabled, its actions not shown, and
  // the reason said once (the server refuses those requests anyway).
  const mayChange = mayChangeRow(me, editor.row);
  const readOnlyReason = mayChange
    ? null
    : editor.row === null
      ? t('readOnlyReason.cannotCreate')
      : me.can.change_own_rows
        ? t('readOnlyReason.notYours')
        : t('readOnlyReason.cannotChange');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const listHref = routeHref({ name: 'list', type: type.table, list });
  const backLink = useLinkProps(listHref);
  useNavigationBlocker(editor.dirty);
  useDocumentTitle(editor.label, type.title);

  // A new row starts with the cursor in its first field.
  const firstColumn = type.columns[0]?.name;
  useEffect(() => {
    if (!initialRow && firstColumn) document.getElementById(fieldId(firstColumn))?.focus();
  }, [initialRow, firstColumn]);

  const save = async () => {
    const wasNew = editor.row === null;
    const saved = await editor.save();
    if (saved && wasNew) {
      onCreated(saved);
      navigate(routeHref({ name: 'row', type: type.table, id: saved.id, list }), { replace: true, force: true });
    }
  };
  useSaveShortcut(() => {
    if (mayChange) void save();
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (mayChange) void save();
  };
  const confirmDelete = async () => {
    if (await editor.remove()) navigate(listHref, { force: true });
    else setConfirmingDelete(false);
  };

  // A single type's one row has no list to go back to, and is never added to nor deleted.
  const single = type.type === 'single';
  const slugColumn = type.columns.find((column) => column.type === 'slug');
  // A field with a condition is shown while it holds on the form's values (its value is kept while hidden).
  const shown = shownColumns(type.columns, (name) => editor.state.values[name]);
  const shortcut = isMac ? '⌘S' : 'Ctrl+S';
  const preview = previewHref(type.preview_path, type.columns, editor.row);

  return (
    <div className="page page-editor">
      <header className="page-header editor-header">
        <div className="page-heading">
          {!single && (
            <a {...backLink} className="back-link">
              <IconArrowLeft />
              {t('back')}
            </a>
          )}
          <p className="eyebrow">
            {type.title} · {editor.row ? t('editRow') : t('newRow')}
          </p>
          <h1 className="page-title page-title-row">{editor.label}</h1>
          {editor.row && <ScheduleNotice type={type} rowId={editor.row.id} />}
        </div>
        <div className="page-actions">
          {locale?.controls(editor.dirty)}
          <span className={editor.dirty ? 'save-state is-dirty' : 'save-state'} aria-live="polite">
            {editor.saving
              ? t('common:actions.saving')
              : editor.dirty
                ? t('state.unsaved')
                : editor.row
                  ? t('state.saved')
                  : ''}
          </span>
          {preview && (
            <a
              href={preview}
              target="_blank"
              rel="noopener"
              className="button button-ghost"
              title={editor.dirty ? t('preview.dirty') : preview}
            >
              <IconExternal />
              {t('preview.open')}
            </a>
          )}
          {editor.row && !single && me.can.create_rows && (
            <button
              type="button"
              className="button"
              onClick={() => navigate(routeHref({ name: 'create', type: type.table, list }))}
              title={t('newTitle', { type: type.title })}
            >
              <IconPlus />
              {t('new')}
            </button>
          )}
          {editor.row && !single && mayChange && (
            <button
              type="button"
              className="button button-danger-quiet"
              onClick={() => setConfirmingDelete(true)}
              disabled={editor.saving || editor.deleting}
            >
              <IconTrash />
              {t('common:actions.delete')}
            </button>
          )}
          {!mayChange && (
            <span className="badge badge-gray">
              <IconLock />
              {t('readOnly')}
            </span>
          )}
          {editor.row && (
            <ScheduleControl type={type} rowId={editor.row.id} mayChange={mayChange} dirty={editor.dirty} />
          )}
          {mayChange && (
            <button
              type="submit"
              form="row-form"
              className="button button-primary"
              disabled={editor.saving}
              aria-busy={editor.saving || undefined}
              title={t('saveTitle', { shortcut })}
            >
              <IconSave />
              {t('common:actions.save')}
              {/* The name is exactly the word Save: the shortcut is shown, not announced. */}
              <span aria-hidden="true">
                <kbd className="button-kbd">{shortcut}</kbd>
              </span>
            </button>
          )}
        </div>
      </header>

      <form id="row-form" className="editor-layout" onSubmit={onSubmit} noValidate>
        <div className="editor-main">
          {editor.banner && (
            <FormBanner
              message={editor.banner}
              problems={editor.errors.other}
              references={editor.references}
              onDismiss={editor.dismissBanner}
            />
          )}
          {readOnlyReason && <ReadOnlyNote message={readOnlyReason} />}
          <LiveRowNotice type={type} row={editor.row} locale={locale?.code} />
          <fieldset className="editor-fields" disabled={!mayChange}>
            <section className="card" aria-label={t('content')}>
              <div className="field-grid">
                {type.columns
                  .filter((column) => shown.has(column.name))
                  .map((column) => {
                    const parts = locale?.field(column, editor.row);
                    const frame = (
                      <FieldFrame
                        key={column.name}
                        marks={parts?.marks}
                        placeholder={parts?.placeholder}
                        column={parts?.optional && column.required ? { ...column, required: false } : column}
                        value={editor.state.values[column.name]}
                        onChange={(value) => editor.change(column.name, value)}
                        error={editor.errors.columns[column.name]}
                        problems={editor.errors.inside[column.name]}
                        derived={
                          column.name in editor.state.following
                            ? {
                                following: editor.state.following[column.name],
                                sourceLabel:
                                  type.columns.find((candidate) => candidate.name === column.parent)?.label ??
                                  column.parent ??
                                  '',
                                regenerate: () => editor.regenerate(column.name),
                              }
                            : undefined
                        }
                      />
                    );
                    return parts?.beside ? (
                      <div key={column.name} className="translation-pair">
                        {parts.beside}
                        {frame}
                      </div>
                    ) : (
                      frame
                    );
                  })}
              </div>
            </section>
            <SeoSection
              meta={editor.state.meta}
              errors={editor.errors.meta}
              onChange={editor.changeMeta}
              fallbackTitle={editor.label}
              slug={slugColumn ? asText(editor.state.values[slugColumn.name]) : ''}
            />
          </fieldset>
        </div>
        <aside className="editor-side">
          <RowDetails row={editor.row} type={type.table} />
          {editor.row && (
            <HistoryPanel
              type={type}
              row={editor.row}
              mayRestore={mayChange}
              dirty={editor.dirty}
              onRestored={onRestored}
              localeLabel={locale?.labelOf}
            />
          )}
        </aside>
      </form>

      {editor.conflict && (
        <LazyScreen>
          <ConflictDialog
            fields={editor.conflict.fields}
            lastChange={editor.conflict.lastChange}
            deleted={editor.conflict.deleted}
            mineJson={mineAsJson(type.columns, editor.conflict.mine)}
            fileName={`${type.table}-${editor.row?.id ?? 'row'}-mine.json`}
            onResolve={(choices) => void editor.resolveConflict(choices)}
            onCancel={editor.setConflictAside}
          />
        </LazyScreen>
      )}

      {confirmingDelete && (
        <ConfirmDialog
          title={t('deleteDialog.title', { title: editor.label })}
          confirmLabel={t('common:actions.delete')}
          busy={editor.deleting}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setConfirmingDelete(false)}
        >
          <p>
            {t(editor.dirty ? 'deleteDialog.bodyDirty' : 'deleteDialog.body', {
              type: type.title,
              title: editor.label,
            })}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
