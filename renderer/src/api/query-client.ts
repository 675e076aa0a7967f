import { QueryClient } from '@tanstack/react-query';

/**
 * The cache of the API's answers (TanStack Query), one per API client, with defaults chosen for a
 * local server that this editor mostly writes to itself.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // The server is on this machine or the LAN: whether the browser thinks it is online says
        // nothing about it, so requests never wait for "online" and reconnecting reloads nothing.
        networkMode: 'always',
        refetchOnReconnect: false,
        // Switching windows reloads nothing: in the desktop app that would re-request the list and
        // every type's row count each time; the editor's own writes invalidate what they change.
        refetchOnWindowFocus: false,
        // Answers are stale at once, so each visit to a screen reads afresh (the cached answer
        // shows meanwhile); what must not reload says so (content types, an open row).
        staleTime: 0,
        // A failed read shows its error and "Try again" at once, instead of a spinner for the
        // seconds of three automatic retries (a refused token is already asked for by the client).
        retry: false,
      },
    },
  });
}
