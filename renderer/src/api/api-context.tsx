import { createContext, type ReactNode, useContext } from 'react';
import type { ApiClient } from './client.js';

const ApiContext = createContext<ApiClient | null>(null);

/** Provides the API client to the pages (tests pass a fake one). */
export function ApiProvider({ client, children }: { client: ApiClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

/** The API client of the surrounding ApiProvider. */
export function useApi(): ApiClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi needs an ApiProvider');
  return client;
}
