import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { StarterSetName, StartersResponse } from '../../../common/starter-contract.js';
import { useApi } from '../api/api-context.js';
import { queryKeys } from './row-queries.js';

const STARTERS_KEY = ['starters'] as const;

/** The first run's choice as the home screen needs it. */
export interface StarterChoice {
  /** The starter sets and whether the choice is open; null while unknown or when it could not be read. */
  state: StartersResponse | null;
  /** Whether the home screen waits for the answer before moving on. */
  waiting: boolean;
  /** Makes the choice; the content types are reloaded before the choice shows as made. */
  choose(set: StarterSetName): Promise<void>;
  /** The last choice's failure (a 409 naming the starter types that hold rows), or null. */
  failure: unknown;
  choosing: boolean;
}

/**
 * Reads `GET /api/starters` when `asked` (an admin on the home screen of a site with types). A
 * server that cannot say (an older one, a failure) offers nothing: the editor opens as before.
 */
export function useStarterChoice(asked: boolean): StarterChoice {
  const api = useApi();
  const queries = useQueryClient();
  const query = useQuery({
    queryKey: STARTERS_KEY,
    queryFn: ({ signal }) => api.starters(signal),
    enabled: asked,
    retry: false,
  });
  const mutation = useMutation({
    mutationFn: async (set: StarterSetName) => {
      const state = await api.chooseStarters(set);
      const types = await api.listContentTypes();
      // Both at once: the home screen moves on to the first of the new types, never an old one.
      queries.setQueryData(queryKeys.contentTypes, types);
      queries.setQueryData(STARTERS_KEY, state);
    },
  });
  return {
    state: query.data ?? null,
    waiting: asked && query.isLoading,
    choose: async (set) => {
      await mutation.mutateAsync(set).catch(() => undefined);
    },
    failure: mutation.error,
    choosing: mutation.isPending,
  };
}
