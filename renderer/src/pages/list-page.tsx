import { useCallback, useEffect, useRef, useState } from 'react';
import { Trans } from 'react-i18next';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useAuth } from '../api/auth-context.js';
import { ContentTable } from '../components/content-table.js';
import { IconPlus, IconSearch, IconTrash } from '../components/icons.js';
import { dialogIsOpen, isTypingTarget, matchesShortcut, SHORTCUTS } from '../components/keyboard-shortcuts.js';
import { listColumns } from '../components/list-columns.js';
import { ListFilters } from '../components/list-filters.js';
import { Pagination } from '../components/pagination.js';
import { EmptyState, LoadFailedState, LoadingState } from '../components/states.js';
import { useDocumentTitle } from '../hooks/use-document-title.js';
import { useRowList } from '../hooks/use-row-list.js';
import { useFormatters } from '../i18n/formatters.js';
import { useT } from '../i18n/use-t.js';
import { useLinkProps, useNavigate } from '../routing/router.js';
import { EMPTY_LIST_STATE, type ListState, parseListState, routeHref } from '../routing/routes.js';
import { isSearchable, searchCoversText } from '../schema/type-facts.js';
import { InLocale } from '../translation/in-locale.js';
import type { LocaleView } from '../translation/locale-view.js';

/** How long typing pauses before the search runs. */
const SEARCH_DELAY_MS = 250;

/** The list, in a locale for a type with translatable fields. */
export function ListPage(props: { type: ContentTypeSummary; list: ListState }) {
  return <InLocale {...props} render={(locale) => <RowList {...props} locale={locale} />} />;
}

/** The rows of one content type: search, filters, sortable table, pages. All of it lives in the URL. */
function RowList({ type, list, locale }: { type: ContentTypeSummary; list: ListState; locale: LocaleView | null }) {
  const navigate = useNavigate();
  const t = useT('pages-list');
  const format = useFormatters();
  const { me } = useAuth();
  const { data, offset, loading, error, retry } = useRowList(type, list, locale ?? undefined);
  useDocumentTitle(type.title);

  // Merged into the URL as it is now rather than as this page last drew it: the search's navigation
  // runs from a timer, and a click landing before React draws again ran with the list before it
  // (the search was lost; seen in CI as a list filtered by status alone under a search box).
  const go = useCallback(
    (next: Partial<ListState>, replace = false) => {
      const current = parseListState(window.location.search);
      navigate(routeHref({ name: 'list', type: type.table, list: { ...current, ...next } }), { replace });
    },
    [navigate, type.table],
  );
  const columns = listColumns(type);
  const searchable = isSearchable(type);
  const narrowed = list.search.trim() !== '' || Object.values(list.filters).some((value) => value !== '');

  // A page past the end (rows were deleted, or an old link): show the last page instead.
  useEffect(() => {
    if (!data || loading || data.count > 0 || list.page === 1) return;
    const lastPage = Math.max(1, Math.ceil(data.filtered / list.pageSize));
    if (lastPage < list.page) go({ page: lastPage }, true);
  }, [data, loading, list.page, list.pageSize, go]);

  const onSort = (order: string) => {
    const current = list.sort?.order === order ? list.sort : null;
    // Ascending, then descending, then back to the default (newest first).
    const sort = !current ? { order, desc: false } : !current.desc ? { order, desc: true } : null;
    go({ sort, page: 1 });
  };

  const newHref = routeHref({ name: 'create', type: type.table, list });
  const trashLink = useLinkProps(routeHref({ name: 'trash', type: type.table, list }));
  const rowHref = (id: string) => routeHref({ name: 'row', type: type.table, id, list });

  return (
    <div className="page">
      <header className="page-header">
        <div className="page-heading">
          <h1 className="page-title">{type.title}</h1>
          <p className="page-subtitle">
            {data ? t('common:rowCount', { count: data.total, formatted: format.number(data.total) }) : '\u00a0'}
          </p>
        </div>
        <div className="page-actions">
          <a {...trashLink} className="button button-ghost">
            <IconTrash />
            {t('trash')}
          </a>
          {me.can.create_rows && (
            <button type="button" className="button button-primary" onClick={() => navigate(newHref)}>
              <IconPlus />
              {t('new')}
            </button>
          )}
        </div>
      </header>

      <div className="toolbar">
        {searchable && (
          <SearchBox
            value={list.search}
            coversText={searchCoversText(type)}
            onSearch={(search) => go({ search, page: 1 }, true)}
          />
        )}
        {locale?.controls(false, (filters) => go({ filters, page: 1 }))}
        <ListFilters type={type} filters={list.filters} onChange={(filters) => go({ filters, page: 1 })} />
        {narrowed && (
          <button
            type="button"
            className="button button-ghost button-small"
            onClick={() => go({ ...EMPTY_LIST_STATE, sort: list.sort, pageSize: list.pageSize })}
          >
            {t('clearFilters')}
          </button>
        )}
      </div>

      <div className="list-body">
        {error && !loading ? (
          <LoadFailedState title={t('loadFailed', { type: type.title })} error={error} onRetry={retry} />
        ) : !data ? (
          <LoadingState label={t('loading', { type: type.title })} />
        ) : data.total === 0 ? (
          <EmptyState
            title={t('empty.title', { type: type.title.toLowerCase() })}
            action={
              me.can.create_rows && (
                <button type="button" className="button button-primary" onClick={() => navigate(newHref)}>
                  <IconPlus />
                  {t('empty.add')}
                </button>
              )
            }
          >
            <Trans
              t={t}
              i18nKey="empty.body"
              values={{ path: `/api/cms/${type.table}` }}
              components={{ code: <code /> }}
            />
          </EmptyState>
        ) : data.filtered === 0 ? (
          <EmptyState
            title={t('noMatch.title')}
            action={
              <button
                type="button"
                className="button"
                onClick={() => go({ ...EMPTY_LIST_STATE, sort: list.sort, pageSize: list.pageSize })}
              >
                {t('noMatch.clear')}
              </button>
            }
          >
            {list.search ? t('noMatch.search', { type: type.title, search: list.search }) : t('noMatch.filter')}
          </EmptyState>
        ) : (
          <>
            <ContentTable
              caption={t('caption', { type: type.title, page: format.number(list.page) })}
              columns={columns}
              titleColumn={type.title_column}
              rows={data.rows}
              sort={list.sort}
              onSort={onSort}
              rowHref={rowHref}
              busy={loading}
            />
            <Pagination
              page={list.page}
              offset={offset}
              pageSize={list.pageSize}
              count={data.count}
              filtered={data.filtered}
              total={data.total}
              onPage={(page) => go({ page })}
              onPageSize={(pageSize) => go({ pageSize, page: 1 })}
            />
          </>
        )}
        {loading && data && <div className="progress-bar" aria-hidden="true" />}
      </div>
    </div>
  );
}

/** The search box: searches as you type (after a short pause); `/` focuses it from anywhere in the list. */
function SearchBox({
  value,
  coversText,
  onSearch,
}: {
  value: string;
  /** Whether the search also covers rich text or blocks (`search_columns` beyond title and slugs). */
  coversText: boolean;
  onSearch(search: string): void;
}) {
  const t = useT('pages-list');
  const [draft, setDraft] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  const sent = useRef(value);
  const latest = useRef(onSearch);
  latest.current = onSearch;

  // Back/forward or "Clear filters" changed the URL: show its search.
  useEffect(() => {
    if (value !== sent.current) {
      sent.current = value;
      setDraft(value);
    }
  }, [value]);

  useEffect(() => {
    if (draft === sent.current) return;
    const timer = window.setTimeout(() => {
      sent.current = draft;
      latest.current(draft);
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [draft]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!matchesShortcut(event, SHORTCUTS.search) || isTypingTarget(event.target) || dialogIsOpen()) return;
      event.preventDefault();
      input.current?.focus();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <div className="search">
      <label htmlFor="list-search" className="visually-hidden">
        {t('search.label')}
      </label>
      <IconSearch />
      <input
        ref={input}
        id="list-search"
        type="search"
        className="input search-input"
        placeholder={t(coversText ? 'search.placeholderWithText' : 'search.placeholder')}
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            sent.current = draft;
            onSearch(draft);
          }
        }}
        autoComplete="off"
        spellCheck={false}
      />
      <kbd className="search-kbd" title={t('search.shortcut')}>
        {SHORTCUTS.search.key}
      </kbd>
    </div>
  );
}
