import { type DragEvent, useRef, useState } from 'react';
import type { UploadResponse } from '../../../common/api-contract.js';
import { isMediaPath } from '../../../common/media-rules.js';
import { IconImage, IconLayers, IconTrash, IconUpload } from '../components/icons.js';
import { LazyScreen, lazyNamed } from '../components/lazy-screen.js';
import { formatNumber } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import type { FieldCellProps, FieldInputProps, FieldWidget } from './field-types.js';
import { asText, textToBody } from './field-values.js';
import { ImageDescription } from './image-description.js';
import { ACCEPTED_IMAGES, mediaFileName } from './image-upload.js';
import { useImageUpload } from './use-image-upload.js';

const hasFiles = (event: DragEvent) => [...event.dataTransfer.types].includes('Files');

// The library's picker loads the first time someone opens it.
const MediaPickerDialog = lazyNamed(() => import('../components/media-picker-dialog.js'), 'MediaPickerDialog', [
  'pages-media',
]);

/**
 * An image: the current one as a preview, upload by file picker or by dropping a file on the field
 * (`POST /api/uploads`, with progress), a choice from the media library, Replace and Remove. The
 * value is the image's path. The image's size and alt text come from the media library
 * (ImageDescription), where the alt text is edited in place.
 */
function ImageInput({ column, id, value, onChange, describedBy, invalid }: FieldInputProps) {
  const t = useT('fields');
  const path = asText(value);
  const [uploaded, setUploaded] = useState<UploadResponse | null>(null);
  const [picking, setPicking] = useState(false);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const { upload, cancel, uploading, problem, clearProblem } = useImageUpload((answer) => {
    setUploaded(answer);
    onChange(answer.path);
  });

  const choose = () => fileInput.current?.click();
  // A read-only form disables its controls (a disabled fieldset); a drop is refused like a click.
  const accepts = (event: DragEvent) => hasFiles(event) && !fileInput.current?.matches(':disabled');
  const onDrop = (event: DragEvent) => {
    if (!accepts(event)) return;
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void upload(file);
  };

  const showsImage = path !== '' && isMediaPath(path);
  const details = uploaded?.path === path ? uploaded : null;
  const libraryButton = (
    <button
      type="button"
      className="button button-small"
      onClick={() => setPicking(true)}
      disabled={!!uploading}
      aria-label={t('image.libraryLabel', { label: column.label })}
    >
      <IconLayers />
      {t('image.library')}
    </button>
  );
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping a file is a mouse shortcut; the Choose file button is the keyboard path
    <div
      className={`image-field${dragging ? ' is-dragging' : ''}${invalid ? ' is-invalid' : ''}`}
      onDragEnter={(event) => accepts(event) && setDragging(true)}
      onDragOver={(event) => {
        if (!accepts(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <input
        ref={fileInput}
        id={id}
        name={column.name}
        type="file"
        accept={ACCEPTED_IMAGES}
        className="visually-hidden"
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(event) => {
          const file = event.target.files?.[0];
          // Cleared, so choosing the same file again still fires a change.
          event.target.value = '';
          if (file) void upload(file);
        }}
      />
      {path !== '' ? (
        <div className="image-current">
          {showsImage ? (
            <img className="image-preview" src={path} alt={t('image.preview', { label: column.label })} />
          ) : (
            <span className="image-preview image-preview-missing" aria-hidden="true">
              <IconImage />
            </span>
          )}
          <div className="image-info">
            <p className="image-name" title={path}>
              {mediaFileName(path)}
            </p>
            <ImageDescription path={path} known={details} label={column.label} />
            <div className="image-actions">
              <button
                type="button"
                className="button button-small"
                onClick={choose}
                disabled={!!uploading}
                aria-label={t('image.replaceLabel', { label: column.label })}
              >
                <IconUpload />
                {t('image.replace')}
              </button>
              {libraryButton}
              <button
                type="button"
                className="button button-small button-danger-quiet"
                onClick={() => {
                  clearProblem();
                  onChange('');
                }}
                disabled={!!uploading}
                aria-label={t('image.removeLabel', { label: column.label })}
              >
                <IconTrash />
                {t('common:actions.remove')}
              </button>
            </div>
          </div>
        </div>
      ) : (
        <div className="image-drop">
          <span className="image-drop-icon" aria-hidden="true">
            <IconImage />
          </span>
          <p className="image-drop-text">{dragging ? t('image.drop') : t('image.drag')}</p>
          <button
            type="button"
            className="button button-small"
            onClick={choose}
            disabled={!!uploading}
            aria-label={t('image.chooseLabel', { label: column.label })}
          >
            <IconUpload />
            {t('image.choose')}
          </button>
          {libraryButton}
          <p className="image-drop-hint">{t('image.formats')}</p>
        </div>
      )}
      {uploading && (
        <div className="image-progress" role="status">
          <progress
            max={1}
            value={uploading.progress}
            aria-label={t('image.uploadingLabel', { name: uploading.name })}
          />
          <span className="image-progress-text">
            {t('image.uploading', {
              name: uploading.name,
              percent: formatNumber(uploading.progress, { style: 'percent', maximumFractionDigits: 0 }),
            })}
          </span>
          <button type="button" className="button button-ghost button-small" onClick={cancel}>
            {t('image.cancel')}
          </button>
        </div>
      )}
      {problem && (
        <p className="field-error image-problem" role="alert">
          {problem}
        </p>
      )}
      {picking && (
        <LazyScreen>
          <MediaPickerDialog
            onClose={() => setPicking(false)}
            onPick={(asset) => {
              setPicking(false);
              clearProblem();
              setUploaded({
                path: asset.path,
                type: asset.type,
                size: asset.size,
                width: asset.width ?? undefined,
                height: asset.height ?? undefined,
              });
              onChange(asset.path);
            }}
          />
        </LazyScreen>
      )}
    </div>
  );
}

function ImageCell({ value }: FieldCellProps) {
  const path = asText(value);
  if (path === '' || !isMediaPath(path)) return <span className="cell-empty">—</span>;
  return <img className="cell-thumb" src={path} alt="" loading="lazy" width={44} height={30} />;
}

/** `image`: the path of an uploaded file (`/media/…`); the list shows a small thumbnail. */
export const imageField: FieldWidget = {
  typeName: () => i18n.t('fields:types.image'),
  Input: ImageInput,
  Cell: ImageCell,
  initial: () => '',
  fromRow: (value) => asText(value),
  toBody: (value) => textToBody(value),
  editable: () => true,
  listable: true,
  listRank: 1,
  sortable: false,
};
