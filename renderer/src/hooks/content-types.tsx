import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ContentTypeSummary } from '../../../common/api-contract.js';
import { useApi } from '../api/api-context.js';

/** The content types of the server, loaded once, and a counter that ticks whenever rows change. */
export interface ContentTypesValue {
  types: ContentTypeSummary[] | null;
  error: unknown;
  reload(): void;
  /** Bumped after every create and delete, so counts and lists reload. */
  dataVersion: number;
  rowsChanged(): void;
  /** A type was created or changed: the editor shows it as the server answered at once. */
  typeSaved(type: ContentTypeSummary): void;
  /** A type was deleted, with its rows. */
  typeDeleted(slug: string): void;
}

const ContentTypesContext = createContext<ContentTypesValue | null>(null);

/** Loads `GET /api/cms-content` for the whole editor. */
export function ContentTypesProvider({ children }: { children: ReactNode }) {
  const api = useApi();
  const [types, setTypes] = useState<ContentTypeSummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const [dataVersion, setDataVersion] = useState(0);

  useEffect(() => {
    // `attempt` is a dependency so "Try again" reloads.
    void attempt;
    const controller = new AbortController();
    setError(null);
    api.listContentTypes(controller.signal).then(
      (loaded) => setTypes(loaded),
      (failure: unknown) => {
        if (!controller.signal.aborted) setError(failure);
      },
    );
    return () => controller.abort();
  }, [api, attempt]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const rowsChanged = useCallback(() => setDataVersion((n) => n + 1), []);
  const typeSaved = useCallback((saved: ContentTypeSummary) => {
    setTypes((list) => {
      if (!list) return [saved];
      return list.some((type) => type.slug === saved.slug)
        ? list.map((type) => (type.slug === saved.slug ? saved : type))
        : [...list, saved];
    });
  }, []);
  const typeDeleted = useCallback((slug: string) => {
    setTypes((list) => list?.filter((type) => type.slug !== slug) ?? list);
    setDataVersion((n) => n + 1);
  }, []);
  const value = useMemo(
    () => ({ types, error, reload, dataVersion, rowsChanged, typeSaved, typeDeleted }),
    [types, error, reload, dataVersion, rowsChanged, typeSaved, typeDeleted],
  );
  return <ContentTypesContext.Provider value={value}>{children}</ContentTypesContext.Provider>;
}

/** The content types and the rows-changed counter. */
export function useContentTypes(): ContentTypesValue {
  const value = useContext(ContentTypesContext);
  if (!value) throw new Error('useContentTypes needs a ContentTypesProvider');
  return value;
}
