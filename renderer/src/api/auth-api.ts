import { abilitiesOf } from '../../../common/access-rules.js';
import type {
  AccountListResponse,
  AccountSummary,
  AuthMeResponse,
  CreateAccountRequest,
  CreateTokenRequest,
  CreateTokenResponse,
  TokenListResponse,
  TokenSummary,
  UpdateAccountRequest,
  UpdateMeRequest,
} from '../../../common/api-contract.js';
import type { AuthProvidersResponse } from '../../../common/single-sign-on-rules.js';
import { ApiError, worded } from './api-error.js';
import { sessionTokenStore } from './auth-token.js';

/**
 * Sign-in and the admin screen's calls (`/api/auth/*`, `/api/accounts`, `/api/tokens`). The
 * session is a cookie the browser sends by itself (same origin only); a run token given in the
 * token dialog is sent too, so an admin token works here as everywhere.
 */

/** What the editor assumes when it is not asked (tests with their own client): the local user. */
export const LOCAL_USER: AuthMeResponse = {
  signed_in: true,
  via: 'local',
  name: null,
  role: 'admin',
  content_types: null,
  can: abilitiesOf('admin'),
  accounts_exist: false,
  first_run: false,
  language: null,
};

/** One API call with the session cookie (and a run token, when one was given); an error answer throws ApiError. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  return (await callTagged<T>(method, path, body)).body;
}

/** A body with the `ETag` it was answered with (null: none). */
export interface Tagged<T> {
  body: T;
  etag: string | null;
}

/**
 * `call` for a document written under `If-Match`: it sends `ifMatch` when given and answers with
 * the response's ETag too, the version the next write names.
 */
export async function callTagged<T>(
  method: string,
  path: string,
  body?: unknown,
  ifMatch?: string,
): Promise<Tagged<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = sessionTokenStore().get();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (ifMatch !== undefined) headers['If-Match'] = ifMatch;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'network_error', 'Cannot reach the Quire server');
  }
  const text = await response.text().catch(() => '');
  let payload: unknown;
  try {
    payload = text ? JSON.parse(text) : undefined;
  } catch {
    payload = undefined;
  }
  if (!response.ok) throw await worded(ApiError.fromBody(response.status, payload));
  return { body: payload as T, etag: response.headers.get('ETag') };
}

/** The auth and admin calls. */
export const authApi = {
  me: () => call<AuthMeResponse>('GET', '/auth/me'),
  providers: () => call<AuthProvidersResponse>('GET', '/auth/providers'),
  /** With `code`, the password and a second factor in one step (which also signs in a name guesses have locked). */
  signIn: (name: string, password: string, code?: string) =>
    call<AuthMeResponse>('POST', '/auth/sign-in', code ? { name, password, code } : { name, password }),
  firstRun: (name: string, password: string) => call<AuthMeResponse>('POST', '/auth/first-run', { name, password }),
  signOut: () => call<AuthMeResponse>('POST', '/auth/sign-out'),
  /** The signed-in person's own preferences (the editor language). */
  changeMe: (body: UpdateMeRequest) => call<AuthMeResponse>('PATCH', '/auth/me', body),
  listAccounts: async () => (await call<AccountListResponse>('GET', '/accounts')).accounts,
  addAccount: (body: CreateAccountRequest) => call<AccountSummary>('POST', '/accounts', body),
  changeAccount: (name: string, body: UpdateAccountRequest) =>
    call<AccountSummary>('PATCH', `/accounts/${encodeURIComponent(name)}`, body),
  listTokens: async () => (await call<TokenListResponse>('GET', '/tokens')).tokens,
  addToken: (body: CreateTokenRequest) => call<CreateTokenResponse>('POST', '/tokens', body),
  revokeToken: (name: string) => call<TokenSummary>('DELETE', `/tokens/${encodeURIComponent(name)}`),
};
