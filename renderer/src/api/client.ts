import type {
  ContentRow,
  ContentTypeListResponse,
  ContentTypeSummary,
  ContentTypeWriteResponse,
  CreateContentTypeRequest,
  CreateRowResponse,
  DeleteRowResponse,
  GetRowResponse,
  ListQuery,
  ListResponse,
  UnusedMediaResponse,
  UpdateContentTypeRequest,
  UpdateRowResponse,
  UploadResponse,
  WriteBody,
} from '../../../common/api-contract.js';
import type { StarterSetName, StartersResponse } from '../../../common/starter-contract.js';
import type { ApiDocument } from './api-document.js';
import { ApiError, worded } from './api-error.js';
import { sessionTokenStore, type TokenStore } from './auth-token.js';

/** A row's read with the ETag it came with (absent when the answer had none). */
export type TaggedRowResponse = GetRowResponse & { etag?: string };

/** A written row and the ETag of its new version, which the next conditional write sends (null: none came). */
export interface TaggedRow {
  row: ContentRow;
  etag: string | null;
}

/** A list request, optionally in one of the site's locales (`?locale=`: rows of localized types read in it). */
export type RowQuery = ListQuery & { locale?: string };

/** Why the client asks for a token: none given yet, or the one given was refused. */
export type TokenRequestReason = 'missing' | 'rejected';

/** The typed Quire API, as the editor uses it. */
export interface ApiClient {
  listContentTypes(signal?: AbortSignal): Promise<ContentTypeSummary[]>;
  listRows(type: string, query: RowQuery, signal?: AbortSignal): Promise<ListResponse>;
  /** One row (in `locale`, when given), with the ETag a conditional write of it sends. */
  getRow(type: string, id: string, signal?: AbortSignal, locale?: string): Promise<TaggedRowResponse>;
  /** Creates a row; with `locale`, its localized fields are written in that locale. */
  createRow(type: string, body: WriteBody, locale?: string): Promise<CreateRowResponse>;
  /**
   * Changes a row; with `ifMatch` only over that version (a 412 `stale_write` otherwise). `id` null:
   * a single type's one row, at the type's own address (the first such write creates it). With
   * `locale`, its localized fields are written in that locale.
   */
  updateRow(type: string, id: string | null, body: WriteBody, ifMatch?: string, locale?: string): Promise<TaggedRow>;
  /** Deletes a row; with `ifMatch` only that version (a 412 `stale_write` otherwise). */
  deleteRow(type: string, id: string, ifMatch?: string): Promise<DeleteRowResponse>;
  /** Creates a type; the answer's `version` is its ETag. */
  createContentType(body: CreateContentTypeRequest): Promise<ContentTypeWriteResponse>;
  /** Changes a type; with `ifMatch` only over that version (a 412 `stale_write` otherwise); `version` as for create. */
  updateContentType(slug: string, body: UpdateContentTypeRequest, ifMatch?: string): Promise<ContentTypeWriteResponse>;
  /** `force` also deletes the type's rows (refused otherwise while it has any); `ifMatch` as for a change. */
  deleteContentType(slug: string, options?: { force?: boolean; ifMatch?: string }): Promise<ContentTypeWriteResponse>;
  /** Uploads one image (`POST /api/uploads`); `onProgress` hears the share of bytes sent, 0 to 1. */
  uploadFile(file: Blob, options?: UploadOptions): Promise<UploadResponse>;
  /** How many uploads no row uses, and their bytes (`GET /api/media/unused`). */
  unusedMedia(signal?: AbortSignal): Promise<UnusedMediaResponse>;
  /** The server's OpenAPI document (`GET /api/openapi.json`), for the API reference. */
  apiDocument(signal?: AbortSignal): Promise<ApiDocument>;
  /** The starter types and whether the first run's choice is open (`GET /api/starters`). */
  starters(signal?: AbortSignal): Promise<StartersResponse>;
  /** Makes the first run's choice (`POST /api/starters`); refused with 409 while starters hold rows. */
  chooseStarters(set: StarterSetName): Promise<StartersResponse>;
}

/** How an upload reports progress and can be cancelled. */
export interface UploadOptions {
  onProgress?(fraction: number): void;
  signal?: AbortSignal;
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
  query?: RowQuery;
  body?: unknown;
  signal?: AbortSignal;
  /** Sent as `If-Match`: the write happens only over this version. */
  ifMatch?: string;
}

/** A response as the retry loop needs it, whichever transport carried it. */
interface RawResponse {
  status: number;
  ok: boolean;
  payload: unknown;
  /** The answer's ETag, when it had one. */
  etag?: string | null;
}

/** Sends one attempt of a request with these headers (the token may change between attempts). */
type Send = (url: string, headers: Record<string, string>) => Promise<RawResponse>;

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

  /** Runs a request, asking for a token (once for concurrent requests) and retrying after a 401. */
  async function exchange<T>(url: string, send: Send, signal: AbortSignal | undefined): Promise<T> {
    return (await tagged<T>(url, send, signal)).payload;
  }

  /** `exchange`, also giving the successful answer's ETag. */
  async function tagged<T>(
    url: string,
    send: Send,
    signal: AbortSignal | undefined,
  ): Promise<{ payload: T; etag: string | null }> {
    for (;;) {
      const token = tokens.get();
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (token) headers.Authorization = `Bearer ${token}`;
      let response: RawResponse;
      try {
        response = await send(url, headers);
      } catch (error) {
        if (signal?.aborted) throw error;
        throw new ApiError(0, 'network_error', 'Cannot reach the Quire server');
      }
      if (response.ok) {
        if (response.payload === undefined) {
          throw await worded(new ApiError(response.status, 'bad_response', 'The server sent no data'));
        }
        return { payload: response.payload as T, etag: response.etag ?? null };
      }
      const error = ApiError.fromBody(response.status, response.payload);
      if (error.status !== 401 || error.code !== 'unauthorized') throw await worded(error);
      // Another request may have obtained a token while this one was in flight: retry with it.
      if (tokens.get() !== token) continue;
      const given = await askForToken(token ? 'rejected' : 'missing');
      if (!given) throw error;
      tokens.set(given.trim());
    }
  }

  function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    return requestTagged<T>(method, path, options).then((answer) => answer.payload);
  }

  function requestTagged<T>(
    method: string,
    path: string,
    { query, body, signal, ifMatch }: RequestOptions = {},
  ): Promise<{ payload: T; etag: string | null }> {
    const send: Send = async (url, headers) => {
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      if (ifMatch !== undefined) headers['If-Match'] = ifMatch;
      const response = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
        credentials: 'same-origin',
      });
      const payload = parseJson(await response.text().catch(() => ''));
      return { status: response.status, ok: response.ok, payload, etag: response.headers?.get('ETag') };
    };
    return tagged<T>(`${baseUrl}${path}${queryString(query)}`, send, signal);
  }

  /** An upload goes by XMLHttpRequest: fetch cannot report how much of a request body was sent. */
  function upload(file: Blob, { onProgress, signal }: UploadOptions = {}): Promise<UploadResponse> {
    const send: Send = (url, headers) => {
      const form = new FormData();
      form.append('file', file, file instanceof File ? file.name : 'upload');
      return sendWithProgress(url, headers, form, onProgress, signal);
    };
    return exchange<UploadResponse>(`${baseUrl}/uploads`, send, signal);
  }

  const rowPath = (type: string, id?: string) =>
    `/cms/${encodeURIComponent(type)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`;

  return {
    async listContentTypes(signal) {
      const body = await request<ContentTypeListResponse>('GET', '/cms-content', { signal });
      return body.content_types;
    },
    listRows: (type, query, signal) => request<ListResponse>('GET', rowPath(type), { query, signal }),
    getRow: async (type, id, signal, locale) => {
      const { payload, etag } = await requestTagged<GetRowResponse>('GET', rowPath(type, id), {
        signal,
        query: { locale },
      });
      return etag === null ? payload : { ...payload, etag };
    },
    createRow: (type, body, locale) => request<CreateRowResponse>('POST', rowPath(type), { body, query: { locale } }),
    updateRow: async (type, id, body, ifMatch, locale) => {
      const path = id === null ? rowPath(type) : rowPath(type, id);
      const { payload, etag } = await requestTagged<UpdateRowResponse>('PUT', path, {
        body,
        ifMatch,
        query: { locale },
      });
      return { row: payload, etag };
    },
    deleteRow: (type, id, ifMatch) => request<DeleteRowResponse>('DELETE', rowPath(type, id), { ifMatch }),
    createContentType: async (body) =>
      versioned(await requestTagged<ContentTypeWriteResponse>('POST', '/cms-content', { body })),
    updateContentType: async (slug, body, ifMatch) =>
      versioned(
        await requestTagged<ContentTypeWriteResponse>('PUT', `/cms-content/${encodeURIComponent(slug)}`, {
          body,
          ifMatch,
        }),
      ),
    deleteContentType: (slug, { force = false, ifMatch } = {}) =>
      request<ContentTypeWriteResponse>(
        'DELETE',
        `/cms-content/${encodeURIComponent(slug)}${force ? '?force=true' : ''}`,
        { ifMatch },
      ),
    uploadFile: upload,
    unusedMedia: (signal) => request<UnusedMediaResponse>('GET', '/media/unused', { signal }),
    apiDocument: (signal) => request<ApiDocument>('GET', '/openapi.json', { signal }),
    starters: (signal) => request<StartersResponse>('GET', '/starters', { signal }),
    chooseStarters: (set) => request<StartersResponse>('POST', '/starters', { body: { set } }),
  };
}

/** A type's write answer with its ETag as its `version`, as the list gives it. */
function versioned({ payload, etag }: { payload: ContentTypeWriteResponse; etag: string | null }) {
  return etag === null ? payload : { ...payload, version: etag };
}

/** `?filter=a=b&filter=search=x&limit=..&locale=de`: the list query in the server's parameter names. */
export function queryString(query: RowQuery | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  const filters = query.filter === undefined ? [] : Array.isArray(query.filter) ? query.filter : [query.filter];
  for (const filter of filters) params.append('filter', filter);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  if (query.offset !== undefined) params.set('offset', String(query.offset));
  if (query.order !== undefined) params.set('order', query.order);
  if (query.desc) params.set('desc', 'true');
  if (query.locale !== undefined) params.set('locale', query.locale);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** POSTs a form with XMLHttpRequest, reporting upload progress; rejects like fetch on network failure. */
function sendWithProgress(
  url: string,
  headers: Record<string, string>,
  form: FormData,
  onProgress: ((fraction: number) => void) | undefined,
  signal: AbortSignal | undefined,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = false;
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      });
    }
    xhr.addEventListener('load', () =>
      resolve({ status: xhr.status, ok: xhr.status >= 200 && xhr.status < 300, payload: parseJson(xhr.responseText) }),
    );
    xhr.addEventListener('error', () => reject(new TypeError('The upload failed on the network')));
    xhr.addEventListener('abort', () => reject(new DOMException('The upload was cancelled', 'AbortError')));
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled', 'AbortError'));
      return;
    }
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}
