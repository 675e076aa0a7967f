import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, type MouseEvent, useState } from 'react';
import { mayChangeRow } from '../../../common/access-rules.js';
import type { FocalPoint, MediaAssetDetail, MediaAssetPatch } from '../../../common/asset-contract.js';
import { ApiError, describeError } from '../api/api-error.js';
import { useAuth } from '../api/auth-context.js';
import { mediaApi } from '../api/media-api.js';
import { formatBytes } from '../fields/image-upload.js';
import { useFormatters } from '../i18n/formatters.js';
import { problemMessage } from '../i18n/problem-messages.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps } from '../routing/router.js';
import { EMPTY_LIST_STATE, routeHref } from '../routing/routes.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ModalDialog } from './modal-dialog.js';
import { LoadingState } from './states.js';
import { useToast } from './toasts.js';

/** The texts of an asset the dialog edits. */
type Description = Required<Pick<MediaAssetPatch, 'alt' | 'caption' | 'credit' | 'focal'>> & { folder: string };

/** How far one arrow key moves the focal point (Shift: a tenth of it). */
const FOCAL_STEP = 0.05;

/**
 * One asset of the library: its preview with the focal point, what describes it (saved with
 * `PATCH`, problems shown at their fields), the rows that use it, a new file for it, and delete
 * (refused while rows use it, naming them; admins and editors may delete anyway). Read-only for
 * someone who may not change it.
 */
export function MediaDetailsDialog({
  id,
  onClose,
  onChanged,
  onDeleted,
}: {
  id: string;
  onClose(): void;
  onChanged(): void;
  onDeleted(): void;
}) {
  const t = useT('pages-media');
  const { me } = useAuth();
  const { data, error, refetch } = useQuery({
    queryKey: ['media-asset', id],
    queryFn: () => mediaApi.get(id),
    gcTime: 0,
  });
  const mayChange = data !== undefined && mayChangeRow(me.can, me.name, data.uploaded_by);
  return (
    <ModalDialog
      title={data ? data.file_name : t('details.title')}
      onDismiss={onClose}
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('common:actions.close')}
        </button>
      }
    >
      {error && <p role="alert">{describeError(error)}</p>}
      {!data && !error && <LoadingState label={t('loading')} />}
      {data && (
        <AssetDetails
          key={data.hash + data.updated_at}
          asset={data}
          mayChange={mayChange}
          mayForce={me.can.change_any_row}
          onChanged={() => {
            void refetch();
            onChanged();
          }}
          onDeleted={onDeleted}
        />
      )}
    </ModalDialog>
  );
}

function AssetDetails({
  asset,
  mayChange,
  mayForce,
  onChanged,
  onDeleted,
}: {
  asset: MediaAssetDetail;
  mayChange: boolean;
  mayForce: boolean;
  onChanged(): void;
  onDeleted(): void;
}) {
  const t = useT('pages-media');
  const notify = useToast();
  const format = useFormatters();
  const [draft, setDraft] = useState<Description>({
    alt: asset.alt,
    caption: asset.caption,
    credit: asset.credit,
    focal: asset.focal,
    folder: asset.folder ?? '',
  });
  const [problems, setProblems] = useState<Readonly<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [inUse, setInUse] = useState<string | null>(null);

  const save = async () => {
    setBusy(true);
    setFailure(null);
    setProblems({});
    try {
      await mediaApi.change(asset.id, { ...draft, folder: draft.folder.trim() === '' ? null : draft.folder.trim() });
      notify('success', t('details.saved'));
      onChanged();
    } catch (problem) {
      if (problem instanceof ApiError && Object.keys(problem.fields).length > 0) setProblems(problem.fields);
      setFailure(describeError(problem));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (force: boolean) => {
    setBusy(true);
    setFailure(null);
    try {
      await mediaApi.remove(asset.id, force);
      notify('success', t('details.deleted', { name: asset.file_name }));
      onDeleted();
    } catch (problem) {
      setConfirming(false);
      if (problem instanceof ApiError && problem.status === 409 && problem.detail?.code === 'media_in_use') {
        setInUse(t('details.inUse', { reason: problemMessage(problem.detail) ?? problem.message }));
      } else setFailure(describeError(problem));
    } finally {
      setBusy(false);
    }
  };
  const replace = async (file: File) => {
    setBusy(true);
    setFailure(null);
    try {
      await mediaApi.replace(asset.id, file);
      notify('success', t('details.replaced'));
      onChanged();
    } catch (problem) {
      setFailure(describeError(problem));
    } finally {
      setBusy(false);
    }
  };
  const text = (name: 'alt' | 'caption' | 'credit' | 'folder', label: string, multiline = false) => {
    const fieldId = `media-${name}`;
    const problemId = `${fieldId}-problem`;
    const props = {
      id: fieldId,
      className: 'input',
      value: draft[name],
      readOnly: !mayChange,
      'aria-invalid': problems[name] ? true : undefined,
      'aria-describedby': problems[name] ? problemId : undefined,
      onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
    };
    return (
      <div className="field media-field">
        <label htmlFor={fieldId} className="field-label">
          {label}
        </label>
        {multiline ? <textarea rows={2} {...props} /> : <input {...props} />}
        {problems[name] && (
          <p id={problemId} className="field-error">
            {problems[name]}
          </p>
        )}
      </div>
    );
  };

  return (
    <div className="media-details">
      <FocalPicker
        asset={asset}
        focal={draft.focal}
        readOnly={!mayChange}
        onChange={(focal) => setDraft({ ...draft, focal })}
      />
      {problems.focal && <p className="field-error">{problems.focal}</p>}
      <p className="muted media-facts">
        {[
          asset.type,
          asset.width !== null && asset.height !== null
            ? `${format.number(asset.width)} × ${format.number(asset.height)}`
            : null,
          formatBytes(asset.size),
        ]
          .filter((part) => part !== null)
          .join(' · ')}
      </p>
      {!mayChange && <p className="muted">{t('details.readOnly')}</p>}
      {text('alt', t('details.alt'))}
      {asset.alt === '' && draft.alt === '' && <p className="media-warning">{t('details.altMissing')}</p>}
      {text('caption', t('details.caption'), true)}
      {text('credit', t('details.credit'))}
      {text('folder', t('details.folder'))}
      {failure && (
        <p className="field-error" role="alert">
          {failure}
        </p>
      )}
      {mayChange && (
        <div className="media-details-actions">
          <button type="button" className="button button-primary" onClick={() => void save()} disabled={busy}>
            {busy ? t('common:actions.saving') : t('common:actions.save')}
          </button>
          <label className="button">
            {t('details.replace')}
            <input
              type="file"
              className="visually-hidden"
              accept={asset.type}
              disabled={busy}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = '';
                if (file) void replace(file);
              }}
            />
          </label>
          <button type="button" className="button button-danger" onClick={() => setConfirming(true)} disabled={busy}>
            {t('common:actions.delete')}
          </button>
        </div>
      )}
      {inUse && (
        <div className="media-in-use" role="alert">
          <p>{inUse}</p>
          {mayForce && (
            <button type="button" className="button button-danger" onClick={() => void remove(true)} disabled={busy}>
              {t('details.deleteAnyway')}
            </button>
          )}
        </div>
      )}
      <section className="media-used" aria-labelledby="media-used-heading">
        <h3 id="media-used-heading" className="media-used-title">
          {t('details.usedIn')}
        </h3>
        {asset.used_in.length === 0 && asset.used_elsewhere === 0 ? (
          <p className="muted">{t('details.unused')}</p>
        ) : (
          <ul>
            {asset.used_in.map((use) => (
              <li key={`${use.table}/${use.row}`}>
                <UseLink table={use.table} row={use.row} />
                <span className="muted"> {use.fields.join(', ')}</span>
              </li>
            ))}
            {asset.used_elsewhere > 0 && (
              <li className="muted">{t('details.usedElsewhere', { count: asset.used_elsewhere })}</li>
            )}
          </ul>
        )}
      </section>
      {confirming && (
        <ConfirmDialog
          title={t('details.confirmTitle')}
          confirmLabel={t('common:actions.delete')}
          busy={busy}
          onConfirm={() => void remove(false)}
          onCancel={() => setConfirming(false)}
        >
          {t('details.confirmBody', { name: asset.file_name })}
        </ConfirmDialog>
      )}
    </div>
  );
}

function UseLink({ table, row }: { table: string; row: string }) {
  const link = useLinkProps(routeHref({ name: 'row', type: table, id: row, list: EMPTY_LIST_STATE }));
  return (
    <a {...link} className="media-use-link">
      {table}/{row}
    </a>
  );
}

/**
 * The preview with the focal point on it: a click puts the point there, arrow keys move it (Shift:
 * finer). Crops of the image keep this point in view.
 */
function FocalPicker({
  asset,
  focal,
  readOnly,
  onChange,
}: {
  asset: MediaAssetDetail;
  focal: FocalPoint;
  readOnly: boolean;
  onChange(focal: FocalPoint): void;
}) {
  const t = useT('pages-media');
  const format = useFormatters();
  const clamp = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 1000) / 1000;
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    if (readOnly) return;
    const box = event.currentTarget.getBoundingClientRect();
    onChange({ x: clamp((event.clientX - box.left) / box.width), y: clamp((event.clientY - box.top) / box.height) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (readOnly) return;
    const step = event.shiftKey ? FOCAL_STEP / 10 : FOCAL_STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onChange({ x: clamp(focal.x + move[0]), y: clamp(focal.y + move[1]) });
  };
  const where = t('details.focalAt', {
    x: format.number(Math.round(focal.x * 100)),
    y: format.number(Math.round(focal.y * 100)),
  });
  return (
    <div className="media-preview">
      {/* A pointer sets the point by clicking the picture; a keyboard moves it with the arrows on the same element. */}
      {/* biome-ignore lint/a11y/useSemanticElements: a two-axis picker has no native element; it is a labelled, focusable group */}
      <div
        className="media-focal"
        role="group"
        tabIndex={readOnly ? undefined : 0}
        aria-label={readOnly ? where : `${t('details.focal')}: ${where}. ${t('details.focalHelp')}`}
        onClick={onClick}
        onKeyDown={onKeyDown}
        data-testid="media-focal"
      >
        <img
          src={`${asset.path}?w=640&h=480&fit=inside&v=${asset.hash}`}
          alt={asset.alt}
          width={asset.width ?? undefined}
          height={asset.height ?? undefined}
        />
        <span
          className="media-focal-mark"
          aria-hidden="true"
          style={{ left: `${focal.x * 100}%`, top: `${focal.y * 100}%` }}
        />
      </div>
      <p className="muted media-focal-text" aria-live="polite">
        {t('details.focal')}: {where}
      </p>
    </div>
  );
}
