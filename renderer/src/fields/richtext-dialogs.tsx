import { type FormEvent, type ReactNode, useId, useState } from 'react';
import type { ContentRow } from '../../../common/api-contract.js';
import type { RowLinkTarget } from '../../../common/richtext-rules.js';
import { describeError } from '../api/api-error.js';
import { ModalDialog } from '../components/modal-dialog.js';
import { Select } from '../components/ui/select.js';
import { useContentTypes } from '../hooks/content-types.js';
import { useT } from '../i18n/use-t.js';
import { rowLabel } from '../schema/type-facts.js';
import { ACCEPTED_IMAGES, mediaFileName } from './image-upload.js';
import { normalizeHref } from './richtext-value.js';
import { useImageUpload } from './use-image-upload.js';
import { useRelationSearch } from './use-relation-search.js';

/**
 * A dialog with one form: its submit stays in the dialog (the dialog renders in a portal, but React
 * still bubbles its events to the row form around the field, which must not save).
 */
function FormDialog({
  title,
  submitLabel,
  canSubmit,
  onSubmit,
  onCancel,
  children,
  extraAction,
}: {
  title: string;
  submitLabel: string;
  canSubmit: boolean;
  onSubmit(): void;
  onCancel(): void;
  children: ReactNode;
  extraAction?: ReactNode;
}) {
  const t = useT('fields-richtext');
  const formId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (canSubmit) onSubmit();
  };
  return (
    <ModalDialog
      title={title}
      onDismiss={onCancel}
      initialFocus="input, [role=combobox]"
      actions={
        <>
          {extraAction}
          <button type="button" className="button" onClick={onCancel}>
            {t('common:actions.cancel')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={!canSubmit}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} className="richtext-dialog-form">
        {children}
      </form>
    </ModalDialog>
  );
}

/** Asks for a link's address; an empty one removes the link. */
export function LinkDialog({
  initial,
  onApply,
  onRemove,
  onCancel,
}: {
  initial: string;
  onApply(href: string): void;
  onRemove(): void;
  onCancel(): void;
}) {
  const t = useT('fields-richtext');
  const id = useId();
  const [typed, setTyped] = useState(initial);
  const href = normalizeHref(typed);
  const invalid = typed.trim() !== '' && href === null;
  return (
    <FormDialog
      title={t('linkDialog.title')}
      submitLabel={t('linkDialog.apply')}
      canSubmit={href !== null}
      onSubmit={() => href && onApply(href)}
      onCancel={onCancel}
      extraAction={
        initial !== '' && (
          <button type="button" className="button button-danger-quiet" onClick={onRemove}>
            {t('linkDialog.remove')}
          </button>
        )
      }
    >
      <label htmlFor={id} className="label">
        {t('linkDialog.address')}
      </label>
      <input
        id={id}
        className="input"
        type="text"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        aria-invalid={invalid || undefined}
        aria-describedby={`${id}-hint`}
        onChange={(event) => setTyped(event.target.value)}
      />
      <p id={`${id}-hint`} className={invalid ? 'field-error' : 'field-hint'}>
        {invalid ? t('linkDialog.invalid') : t('linkDialog.hint')}
      </p>
    </FormDialog>
  );
}

/** Uploads an image to the media library and asks for its alternative text before it is inserted. */
export function ImageDialog({
  onInsert,
  onCancel,
}: {
  onInsert(image: { src: string; alt: string }): void;
  onCancel(): void;
}) {
  const t = useT('fields-richtext');
  const fieldsT = useT('fields');
  const fileId = useId();
  const altId = useId();
  const [path, setPath] = useState<string | null>(null);
  const [alt, setAlt] = useState('');
  const { upload, uploading, problem } = useImageUpload((answer) => setPath(answer.path));
  return (
    <FormDialog
      title={t('imageDialog.title')}
      submitLabel={t('imageDialog.insert')}
      canSubmit={path !== null && alt.trim() !== ''}
      onSubmit={() => path && onInsert({ src: path, alt: alt.trim() })}
      onCancel={onCancel}
    >
      <label htmlFor={fileId} className="label">
        {t('imageDialog.file')}
      </label>
      <input
        id={fileId}
        className="input"
        type="file"
        accept={ACCEPTED_IMAGES}
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
        }}
      />
      <p className={problem ? 'field-error' : 'field-hint'} role="status">
        {problem ??
          (uploading
            ? t('imageDialog.uploading', { name: uploading.name })
            : path
              ? t('imageDialog.uploaded', { name: mediaFileName(path) })
              : fieldsT('image.formats'))}
      </p>
      {path && <img className="richtext-dialog-preview" src={path} alt="" />}
      <label htmlFor={altId} className="label">
        {t('imageDialog.alt')}
      </label>
      <input
        id={altId}
        className="input"
        type="text"
        value={alt}
        aria-describedby={`${altId}-hint`}
        onChange={(event) => setAlt(event.target.value)}
      />
      <p id={`${altId}-hint`} className="field-hint">
        {t('imageDialog.altHint')}
      </p>
    </FormDialog>
  );
}

/** Picks a row of a content type to link to; the link follows the row when its slug changes. */
export function RowLinkDialog({
  onPick,
  onCancel,
}: {
  onPick(link: RowLinkTarget, title: string): void;
  onCancel(): void;
}) {
  const t = useT('fields-richtext');
  const { types } = useContentTypes();
  const typeId = useId();
  const searchId = useId();
  const [table, setTable] = useState(() => types?.[0]?.table ?? '');
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ContentRow | null>(null);
  const target = types?.find((type) => type.table === table);
  const found = useRelationSearch(target, target ? search : null);
  const titleOf = (row: ContentRow) => (target ? rowLabel(target.title_column, row, row.id) : row.id);
  return (
    <FormDialog
      title={t('rowDialog.title')}
      submitLabel={t('rowDialog.link')}
      canSubmit={chosen !== null && target !== undefined}
      onSubmit={() => chosen && target && onPick({ type: target.slug, id: chosen.id }, titleOf(chosen))}
      onCancel={onCancel}
    >
      <label htmlFor={typeId} className="label">
        {t('rowDialog.type')}
      </label>
      <Select
        id={typeId}
        value={table}
        options={(types ?? []).map((type) => ({ value: type.table, label: type.title }))}
        onChange={(next) => {
          setTable(next);
          setChosen(null);
        }}
      />
      <label htmlFor={searchId} className="label">
        {t('rowDialog.search')}
      </label>
      <input
        id={searchId}
        className="input"
        type="search"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <fieldset className="richtext-row-choices">
        <legend className="visually-hidden">{t('rowDialog.rows')}</legend>
        {found.error ? (
          <p className="field-error">{describeError(found.error)}</p>
        ) : found.rows.length === 0 ? (
          <p className="field-hint">{found.loading ? t('rowDialog.searching') : t('rowDialog.none')}</p>
        ) : (
          found.rows.map((row) => (
            <label key={row.id} className="richtext-row-choice">
              <input
                type="radio"
                name={`${searchId}-row`}
                checked={chosen?.id === row.id}
                onChange={() => setChosen(row)}
              />
              <span>{titleOf(row)}</span>
            </label>
          ))
        )}
      </fieldset>
    </FormDialog>
  );
}
