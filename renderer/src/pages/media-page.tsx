import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type DragEvent, type FormEvent, useRef, useState } from 'react';
import { useApi } from '../api/api-context.js';
import { useAuth } from '../api/auth-context.js';
import { type MediaQuery, mediaApi } from '../api/media-api.js';
import { IconUpload } from '../components/icons.js';
import { MediaDetailsDialog } from '../components/media-details-dialog.js';
import { MediaGrid } from '../components/media-grid.js';
import { Pagination } from '../components/pagination.js';
import { EmptyState, LoadFailedState, LoadingState } from '../components/states.js';
import { Select } from '../components/ui/select.js';
import { ACCEPTED_IMAGES, uploadProblem } from '../fields/image-upload.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useFormatters } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';
import '../styles/media.css';

/** Assets a page of the grid shows unless the person picks another size. */
const PAGE_SIZE = 48;
const PAGE_SIZES = [24, 48, 96] as const;
const NO_FILTER: MediaQuery = { search: '', type: '', unused: '', folder: '' };
/** The media types the filter offers (what the server accepts as uploads). */
const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/svg+xml'] as const;

/** One file of an upload: its progress (0 to 1), then done or a sentence saying why it failed. */
interface UploadItem {
  key: number;
  name: string;
  progress: number;
  state: 'sending' | 'done' | 'failed';
  problem?: string;
}

/**
 * The media library: a grid of every upload's thumbnail, searched and filtered on the server,
 * a page at a time; files dropped on the grid or picked are uploaded one after another, each with
 * its progress; a thumbnail opens the asset's details (describe, where used, replace, delete).
 */
export function MediaPage() {
  const t = useT('pages-media');
  useDocumentTitle(t('title'));
  const { me } = useAuth();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<MediaQuery>(NO_FILTER);
  const [query, setQuery] = useState<MediaQuery>(NO_FILTER);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [openId, setOpenId] = useState<string | null>(null);
  const offset = (page - 1) * pageSize;
  const { data, error, refetch } = useQuery({
    queryKey: ['media', query, pageSize, offset],
    queryFn: () => mediaApi.list(query, pageSize, offset),
    gcTime: 0,
    placeholderData: (previous) => previous,
  });
  const reload = () => void queries.invalidateQueries({ queryKey: ['media'] });
  const uploads = useUploads(reload);
  const [dragging, setDragging] = useState(false);

  const apply = (next: MediaQuery) => {
    setQuery(next);
    setPage(1);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    apply(draft);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (me.can.upload) uploads.send([...event.dataTransfer.files]);
  };

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <h1 className="page-title">{t('title')}</h1>
          <p className="page-subtitle">{data ? t('count', { count: data.total }) : '\u00a0'}</p>
        </div>
        {me.can.upload && (
          <div className="page-actions">
            <label className="button button-primary media-upload-button">
              <IconUpload />
              {t('upload')}
              <input
                type="file"
                className="visually-hidden"
                accept={ACCEPTED_IMAGES}
                multiple
                onChange={(event) => {
                  uploads.send([...(event.target.files ?? [])]);
                  event.target.value = '';
                }}
              />
            </label>
          </div>
        )}
      </header>
      <form className="media-filters" onSubmit={submit} aria-label={t('filters.label')}>
        <div className="media-filter media-filter-search">
          <label htmlFor="media-search">{t('filters.search')}</label>
          <input
            id="media-search"
            type="search"
            className="input"
            placeholder={t('filters.searchPlaceholder')}
            value={draft.search}
            onChange={(event) => setDraft({ ...draft, search: event.target.value })}
            autoComplete="off"
          />
        </div>
        <div className="media-filter">
          <label htmlFor="media-type">{t('filters.type')}</label>
          <Select
            id="media-type"
            value={draft.type}
            options={[
              { value: '', label: t('filters.anyType') },
              ...MEDIA_TYPES.map((type) => ({
                value: type,
                label: type.slice('image/'.length).replace('+xml', '').toUpperCase(),
              })),
            ]}
            onChange={(type) => {
              setDraft({ ...draft, type });
              apply({ ...draft, type });
            }}
          />
        </div>
        <div className="media-filter">
          <label htmlFor="media-folder">{t('filters.folder')}</label>
          <input
            id="media-folder"
            className="input"
            value={draft.folder}
            onChange={(event) => setDraft({ ...draft, folder: event.target.value })}
            autoComplete="off"
          />
        </div>
        <label className="media-filter-check">
          <input
            type="checkbox"
            checked={draft.unused === 'true'}
            onChange={(event) => {
              const next = { ...draft, unused: event.target.checked ? 'true' : '' };
              setDraft(next);
              apply(next);
            }}
          />
          {t('filters.unused')}
        </label>
        <button type="submit" className="button">
          {t('filters.apply')}
        </button>
      </form>
      {uploads.items.length > 0 && <UploadList items={uploads.items} onClear={uploads.clear} />}
      {error && <LoadFailedState title={t('loadFailed')} error={error} onRetry={() => void refetch()} />}
      {!data && !error && <LoadingState label={t('loading')} />}
      {data && (
        <section
          className="media-drop"
          data-dragging={dragging}
          aria-label={t('grid')}
          onDragOver={(event) => {
            if (!me.can.upload) return;
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          {data.count === 0 ? (
            <EmptyState title={data.total === 0 ? t('empty.title') : t('empty.noMatch')}>
              {me.can.upload && data.total === 0 ? t('empty.body') : null}
            </EmptyState>
          ) : (
            <MediaGrid assets={data.assets} onOpen={(asset) => setOpenId(asset.id)} />
          )}
          {me.can.upload && <p className="media-drop-hint muted">{t('dropHint')}</p>}
          {data.filtered > 0 && (
            <Pagination
              page={page}
              offset={offset}
              pageSize={pageSize}
              pageSizes={PAGE_SIZES}
              count={data.count}
              filtered={data.filtered}
              total={data.total}
              onPage={setPage}
              onPageSize={(size) => {
                setPageSize(size);
                setPage(1);
              }}
            />
          )}
        </section>
      )}
      {openId !== null && (
        <MediaDetailsDialog
          id={openId}
          onClose={() => setOpenId(null)}
          onChanged={reload}
          onDeleted={() => {
            setOpenId(null);
            reload();
          }}
        />
      )}
    </div>
  );
}

/** The files being uploaded and how far each got, announced politely. */
function UploadList({ items, onClear }: { items: UploadItem[]; onClear(): void }) {
  const t = useT('pages-media');
  const format = useFormatters();
  const busy = items.some((item) => item.state === 'sending');
  return (
    <section className="card media-uploads" aria-label={t('uploads.label')}>
      <ul aria-live="polite">
        {items.map((item) => (
          <li key={item.key} className="media-upload" data-state={item.state} data-testid="media-upload">
            <span className="media-upload-name">{item.name}</span>
            {item.state === 'sending' && (
              <progress max={1} value={item.progress} aria-label={t('uploads.progress', { name: item.name })}>
                {format.number(Math.round(item.progress * 100))}%
              </progress>
            )}
            {item.state === 'done' && <span className="media-upload-done">{t('uploads.done')}</span>}
            {item.state === 'failed' && (
              <span className="media-upload-problem" role="alert">
                {item.problem}
              </span>
            )}
          </li>
        ))}
      </ul>
      {!busy && (
        <button type="button" className="button button-small button-ghost" onClick={onClear}>
          {t('uploads.clear')}
        </button>
      )}
    </section>
  );
}

/** Uploads files one after another, keeping each one's progress and outcome. */
function useUploads(onUploaded: () => void) {
  const api = useApi();
  const [items, setItems] = useState<UploadItem[]>([]);
  const nextKey = useRef(0);
  const queue = useRef(Promise.resolve());
  const update = (key: number, change: Partial<UploadItem>) =>
    setItems((now) => now.map((item) => (item.key === key ? { ...item, ...change } : item)));
  const send = (files: File[]) => {
    for (const file of files) {
      const key = nextKey.current++;
      setItems((now) => [...now, { key, name: file.name, progress: 0, state: 'sending' }]);
      queue.current = queue.current.then(async () => {
        try {
          await api.uploadFile(file, { onProgress: (progress) => update(key, { progress }) });
          update(key, { state: 'done', progress: 1 });
          onUploaded();
        } catch (failure) {
          update(key, { state: 'failed', problem: uploadProblem(file, failure) });
        }
      });
    }
  };
  return { items, send, clear: () => setItems((now) => now.filter((item) => item.state === 'sending')) };
}
