import type {
  ContentTypeListResponse,
  ContentTypeSummary,
  CreateRowResponse,
  DeleteRowResponse,
  GetRowResponse,
  ListQuery,
  ListResponse,
  UpdateRowResponse,
  WriteBody,
} from '../../../server/contract/api-contract.js';
import { ApiError } from './api-error.js';
import { sessionTokenStore, type TokenStore } from './auth-token.js';

/** Why the client asks for a token: none given yet, or the one given was refused. */
export type TokenRequestReason = 'missing' | 'rejected';

/** The typed Quire API, as the editor uses it. */
export interface ApiClient {
  listContentTypes(signal?: AbortSignal): Promise<ContentTypeSummary[]>;
  listRows(type: string, query: ListQuery, signal?: AbortSignal): Promise<ListResponse>;
  getRow(type: string, id: string, signal?: AbortSignal): Promise<GetRowResponse>;
  createRow(type: string, body: WriteBody): Promise<CreateRowResponse>;
  updateRow(type: string, id: string, body: WriteBody): Promise<UpdateRowResponse>;
  deleteRow(type: string, id: string): Promise<DeleteRowResponse>;
}

/** How a client is made: where the API is, how to fetch, and how to ask the user for a token. */
export interface ApiClientOptions {
  /** Base URL of the API, `/api` on the editor's own origin by default. */
  baseUrl?: string;
  fetch?: typeof fetch;
  tokens?: TokenStore;
  /**
   * Asks the user for the API token after a 401 `unauthorized`; resolves to null when they decline.
   * Concurrent 401s share one question.
   */
  requestToken?: (reason: TokenRequestReason) => Promise<string | null>;
}

interface RequestOptions {
  query?: ListQuery;
  body?: WriteBody;
  signal?: AbortSignal;
}

/** Creates the API client. Every request carries `Authorization: Bearer` once a token is known. */
export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? '/api').replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const tokens = options.tokens ?? sessionTokenStore();
  let pendingQuestion: Promise<string | null> | null = null;

  const askForToken = (reason: TokenRequestReason): Promise<string | null> => {
    if (!options.requestToken) return Promise.resolve(null);
    pendingQuestion ??= options.requestToken(reason).finally(() => {
      pendingQuestion = null;
    });
    return pendingQuestion;
  };

  async function request<T>(method: string, path: string, { query, body, signal }: RequestOptions = {}): Promise<T> {
    const url = `${baseUrl}${path}${queryString(query)}`;
    for (;;) {
      const token = tokens.get();
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (token) headers.Authorization = `Bearer ${token}`;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal,
          credentials: 'same-origin',
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new ApiError(0, 'network_error', 'Cannot reach the Quire server');
      }
      const payload = await readJson(response);
      if (response.ok) {
        if (payload === undefined) throw new ApiError(response.status, 'bad_response', 'The server sent no data');
        return payload as T;
      }
      const error = ApiError.fromBody(response.status, payload);
      if (error.status !== 401 || error.code !== 'unauthorized') throw error;
      // Another request may have obtained a token while this one was in flight: retry with it.
      if (tokens.get() !== token) continue;
      const given = await askForToken(token ? 'rejected' : 'missing');
      if (!given) throw error;
      tokens.set(given.trim());
    }
  }

  const rowPath = (type: string, id?: string) =>
    `/cms/${encodeURIComponent(type)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

  return {
    async listContentTypes(signal) {
      const body = await request<ContentTypeListResponse>('GET', '/cms-content', { signal });
      return body.content_types;
    },
    listRows: (type, query, signal) => request<ListResponse>('GET', rowPath(type), { query, signal }),
    getRow: (type, id, signal) => request<GetRowResponse>('GET', rowPath(type, id), { signal }),
    createRow: (type, body) => request<CreateRowResponse>('POST', rowPath(type), { body }),
    updateRow: (type, id, body) => request<UpdateRowResponse>('PUT', rowPath(type, id), { body }),
    deleteRow: (type, id) => request<DeleteRowResponse>('DELETE', rowPath(type, id)),
  };
}

/** `?filter=a=b&filter=search=x&limit=..`: the list query in the server's parameter names. */
export function queryString(query: ListQuery | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  const filters = query.filter === undefined ? [] : Array.isArray(query.filter) ? query.filter : [query.filter];
  for (const filter of filters) params.append('filter', filter);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.offset !== undefined) params.set('offset', String(query.offset));
  if (query.order !== undefined) params.set('order', query.order);
  if (query.desc) params.set('desc', 'true');
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
