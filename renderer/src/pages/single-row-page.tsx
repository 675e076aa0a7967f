import { useQuery } from '@tanstack/react-query';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { LoadFailedState, LoadingState } from '../components/states.js';
import { useT } from '../i18n/use-t.js';
import type { ListState } from '../routing/routes.js';
import { RowEditorPage } from './row-editor-page.js';

/**
 * A single type's screen: its one row's form, opened straight from the sidebar (a single type has
 * no list). Before the row's first save the form is empty; saving it creates the row.
 */
export function SingleRowPage({ type, list }: { type: ContentTypeSummary; list: ListState }) {
  const api = useApi();
  const t = useT('pages-row');
  const { data, error, refetch } = useQuery({
    queryKey: ['single-row', type.table],
    // `GET /api/cms/:type` of a single type answers its one row (none before the first save).
    queryFn: ({ signal }) => api.listRows(type.table, {}, signal),
    staleTime: 0,
    gcTime: 0,
  });
  if (error) {
    return (
      <div className="page">
        <LoadFailedState title={t('openFailed')} error={error} onRetry={() => void refetch()} />
      </div>
    );
  }
  if (!data) {
    return (
      <div className="page">
        <LoadingState label={t('loading')} />
      </div>
    );
  }
  return <RowEditorPage type={type} id={data.rows[0]?.id ?? null} list={list} />;
}
