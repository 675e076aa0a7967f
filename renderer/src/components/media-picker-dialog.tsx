import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { MediaAsset } from '../../../common/asset-contract.js';
import { describeError } from '../api/api-error.js';
import { mediaApi } from '../api/media-api.js';
import { useT } from '../i18n/use-t.js';
import { IconSearch } from './icons.js';
import { MediaGrid } from './media-grid.js';
import { ModalDialog } from './modal-dialog.js';
import { Pagination } from './pagination.js';
import { LoadingState } from './states.js';

/** Images a page of the picker shows. */
const PAGE_SIZE = 24;

/**
 * Picks an image of the media library for an image field: the library's images as a grid, searched
 * by file name, alt text and caption; a thumbnail chooses its image.
 */
export function MediaPickerDialog({ onPick, onClose }: { onPick(asset: MediaAsset): void; onClose(): void }) {
  const t = useT('pages-media');
  const [draft, setDraft] = useState('');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const offset = (page - 1) * PAGE_SIZE;
  const { data, error } = useQuery({
    queryKey: ['media-picker', search, offset],
    queryFn: () => mediaApi.list({ search, type: 'image/', unused: '', folder: '' }, PAGE_SIZE, offset),
    gcTime: 0,
    placeholderData: (previous) => previous,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft);
    setPage(1);
  };
  return (
    <ModalDialog
      title={t('picker.title')}
      onDismiss={onClose}
      initialFocus="#media-picker-search"
      actions={
        <button type="button" className="button" onClick={onClose}>
          {t('common:actions.cancel')}
        </button>
      }
    >
      <div className="media-picker">
        <form className="media-filters" onSubmit={submit} aria-label={t('filters.label')}>
          <div className="media-filter media-filter-search">
            <label htmlFor="media-picker-search">{t('filters.search')}</label>
            <input
              id="media-picker-search"
              type="search"
              className="input"
              placeholder={t('filters.searchPlaceholder')}
              value={draft}
              onChange={(event) => setDraft(event.target.value)}
              autoComplete="off"
            />
          </div>
          <button type="submit" className="button">
            <IconSearch />
            {t('filters.apply')}
          </button>
        </form>
        {error && <p role="alert">{describeError(error)}</p>}
        {!data && !error && <LoadingState label={t('loading')} />}
        {data && data.count === 0 && <p className="muted">{t('empty.noMatch')}</p>}
        {data && data.count > 0 && (
          <>
            <MediaGrid assets={data.assets} onOpen={onPick} label={t('grid')} />
            <Pagination
              page={page}
              offset={offset}
              pageSize={PAGE_SIZE}
              pageSizes={[PAGE_SIZE]}
              count={data.count}
              filtered={data.filtered}
              total={data.total}
              onPage={setPage}
              onPageSize={() => {}}
            />
          </>
        )}
      </div>
    </ModalDialog>
  );
}
