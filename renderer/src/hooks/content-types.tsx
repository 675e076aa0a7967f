import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';
import { useChanges } from '../api/change-events.js';
import { forgetRows, queryKeys } from './row-queries.js';

/** The content types of the server, loaded once, and what to tell the cache after a write. */
export interface ContentTypesValue {
  types: ContentTypeSummary[] | null;
  error: unknown;
  reload(): void;
  /** Rows of `table` were written: lists show it, and its row count when one was added or removed. */
  rowsChanged(table: string, countChanged: boolean): void;
  /** A type was created or changed: the editor shows it as the server answered at once. */
  typeSaved(type: ContentTypeSummary): void;
  /** A type was deleted, with its rows. */
  typeDeleted(slug: string): void;
}

const ContentTypesContext = createContext<ContentTypesValue | null>(null);

/** Loads `GET /api/cms-content` for the whole editor. */
export function ContentTypesProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const queries = useQueryClient();
  const { data, error, refetch } = useQuery({
    queryKey: queryKeys.contentTypes,
    queryFn: ({ signal }) => api.listContentTypes(signal),
    // This editor puts its own writes' answers into the cache; others' arrive as type changes below.
    staleTime: Number.POSITIVE_INFINITY,
  });
  // A type changed anywhere (another tab, another person, another server): the list is read again,
  // and cached rows of the type, which may carry columns by their old names, are forgotten.
  useChanges((change) => {
    if (change.action !== 'type_change') return;
    void refetch();
    forgetRows(queries, change.type, false);
  });

  const value = useMemo<ContentTypesValue>(() => {
    const update = (change: (list: ContentTypeSummary[] | undefined) => ContentTypeSummary[] | undefined) =>
      queries.setQueryData<ContentTypeSummary[]>(queryKeys.contentTypes, change);
    return {
      types: data ?? null,
      error,
      reload: () => void refetch(),
      rowsChanged: (table, countChanged) => forgetRows(queries, table, countChanged),
      typeSaved(saved) {
        update((list) =>
          !list
            ? [saved]
            : list.some((type) => type.slug === saved.slug)
              ? list.map((type) => (type.slug === saved.slug ? saved : type))
              : [...list, saved],
        );
        // Cached rows may carry columns by their old names.
        forgetRows(queries, saved.table, false);
      },
      typeDeleted(slug) {
        const table = data?.find((type) => type.slug === slug)?.table;
        update((list) => list?.filter((type) => type.slug !== slug));
        // Its rows are gone (nothing may ask for them again); other types' rows may have pointed at them.
        if (table !== undefined) queries.removeQueries({ queryKey: queryKeys.rows(table) });
        forgetRows(queries);
      },
    };
  }, [data, error, refetch, queries]);
  return <ContentTypesContext.Provider value={value}>{children}</ContentTypesContext.Provider>;
}

/** The content types and the cache actions that follow writes. */
export function useContentTypes(): ContentTypesValue {
  const value = useContext(ContentTypesContext);
  if (!value) throw new Error('useContentTypes needs a ContentTypesProvider');
  return value;
}
