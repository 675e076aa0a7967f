import { QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import type { ApiClient } from './client.js';
import { createQueryClient } from './query-client.js';

const ApiContext = createContext<ApiClient | null>(null);

/**
 * Provides the API client to the pages (tests pass a fake one), and a cache of its answers that
 * lives as long as this provider and this client (so no answer outlives the client that gave it).
 */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  const queries = useMemo(() => {
    // A new client starts a new, empty cache.
    void client;
    return createQueryClient();
  }, [client]);
  return (
    <ApiContext.Provider value={client}>
      <QueryClientProvider client={queries}>{children}</QueryClientProvider>
    </ApiContext.Provider>
  );
}

/** The API client of the surrounding ApiProvider. */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi needs an ApiProvider');
  return client;
}
