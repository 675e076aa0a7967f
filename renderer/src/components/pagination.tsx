import { useFormatters } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';
import { PAGE_SIZES } from '../routing/routes.js';
import { IconChevronLeft, IconChevronRight } from './icons.js';
import { Select } from './ui/select.js';

/** Props of the pager under the list. */
export interface PaginationProps {
  page: number;
  /** Offset of the rows on screen (the previous page's while the next one loads). */
  offset: number;
  pageSize: number;
  /** The page sizes offered (default: the lists' own). */
  pageSizes?: readonly number[];
  /** Rows on this page. */
  count: number;
  /** Rows matching the search and filters. */
  filtered: number;
  /** All rows of the type. */
  total: number;
  onPage(page: number): void;
  onPageSize(size: number): void;
}

/** "1–50 of 1,234" (and "filtered from" when a search narrows it), page size, and page buttons. */
export function Pagination({
  page,
  offset,
  pageSize,
  pageSizes = PAGE_SIZES,
  count,
  filtered,
  total,
  onPage,
  onPageSize,
}: PaginationProps) {
  const pages = Math.max(1, Math.ceil(filtered / pageSize));
  const first = count === 0 ? 0 : offset + 1;
  const last = count === 0 ? 0 : first + count - 1;
  const t = useT('components');
  const format = useFormatters();
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <p className="pagination-summary" aria-live="polite">
        <span className="pagination-range">
          {t('pagination.range', {
            first: format.number(first),
            last: format.number(last),
            total: format.number(filtered),
          })}
        </span>
        {filtered !== total && (
          <span className="muted"> {t('pagination.filteredFrom', { total: format.number(total) })}</span>
        )}
      </p>
      <div className="pagination-controls">
        <div className="page-size">
          <label htmlFor="page-size">{t('pagination.pageSize')}</label>
          <Select
            id="page-size"
            size="small"
            value={String(pageSize)}
            options={pageSizes.map((size) => ({ value: String(size), label: String(size) }))}
            onChange={(size) => onPageSize(Number(size))}
          />
        </div>
        <span className="page-status">
          {t('pagination.page', { page: format.number(page), pages: format.number(pages) })}
        </span>
        <div className="button-group">
          <button
            type="button"
            className="button button-small button-icon"
            onClick={() => onPage(1)}
            disabled={page <= 1}
            aria-label={t('pagination.first')}
            title={t('pagination.first')}
          >
            «
          </button>
          <button
            type="button"
            className="button button-small button-icon"
            onClick={() => onPage(page - 1)}
            disabled={page <= 1}
            aria-label={t('pagination.previous')}
            title={t('pagination.previous')}
          >
            <IconChevronLeft />
          </button>
          <button
            type="button"
            className="button button-small button-icon"
            onClick={() => onPage(page + 1)}
            disabled={page >= pages}
            aria-label={t('pagination.next')}
            title={t('pagination.next')}
          >
            <IconChevronRight />
          </button>
          <button
            type="button"
            className="button button-small button-icon"
            onClick={() => onPage(pages)}
            disabled={page >= pages}
            aria-label={t('pagination.last')}
            title={t('pagination.last')}
          >
            »
          </button>
        </div>
      </div>
    </nav>
  );
}
