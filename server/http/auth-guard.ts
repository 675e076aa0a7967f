import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { abilitiesOf, typeAllowed } from '../../common/access-rules.js';
import type { AccountService } from '../accounts/account-service.js';
import type { Principal } from '../accounts/principal.js';
import type { TokenService } from '../accounts/token-service.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import type { RowActor } from '../content/row-service.js';
import { AppError } from '../errors/app-error.js';
import { deliveryEchoRefusal } from '../hooks/hook-sender.js';
import { SAFE_METHODS } from './origin-guard.js';
import type { Guard } from './request-guard.js';
import { tokensMatch } from './token-auth.js';

/** The session cookie's name. */
export const SESSION_COOKIE = 'quire_session';

/** Where the checked principal of a request is kept (on node's request, which Express's extends). */
const PRINCIPAL = Symbol('quire.principal');

type WithPrincipal = IncomingMessage & { [PRINCIPAL]?: Principal | null };

/** Who the request comes from (null: no credential, on an endpoint that needs none). */
export function principalOf(req: IncomingMessage): Principal | null {
  return (req as WithPrincipal)[PRINCIPAL] ?? null;
}

/** The author of a row write: its name, and whether it may only change rows it created. */
export function rowActor(req: IncomingMessage): RowActor | undefined {
  const principal = principalOf(req);
  if (!principal) return undefined;
  return { name: principal.name, ownRowsOnly: !abilitiesOf(principal.role).change_any_row, types: principal.types };
}

/**
 * `/cms/:type`, `/cms/:type/:id`, a row's revisions (`/cms/:type/:id/revisions[/:rev]`) and the
 * type's trash (`/cms/:type/trash`); group 2 is set for a restore (of a revision, or from the trash).
 */
const ROW_PATH =
  /^\/cms\/([^/]+)(?:\/[^/]+|\/[^/]+\/revisions(?:\/[^/]+)?|(\/[^/]+\/revisions\/[^/]+\/restore|\/trash\/[^/]+\/restore))?\/?$/;

/** What the guard needs. */
export interface AuthGuardOptions {
  accounts: AccountService;
  tokens: TokenService;
  registry: ContentTypeRegistry;
  /** The run's `--token`: an admin token for this run only. */
  runToken: string | null;
  /** Recorded as the author while there are no accounts (and for the run token). */
  editorName: string | null;
}

/** `Authorization: Bearer <token>`'s token, or null. */
function bearerOf(req: IncomingMessage): string | null {
  const match = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  return match ? match[1] : null;
}

/** The session cookie's value, or null. */
export function sessionCookieOf(req: IncomingMessage): string | null {
  const value = cookieOf(req, SESSION_COOKIE);
  return value !== null && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : null;
}

/** The value of the request's cookie `name` as sent, or null. */
export function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/**
 * The API path of a request (`/cms/news`) exactly as the router matches it: Express's own parse of
 * the target (its mount point and path) when Express runs the guard, else the raw target, which
 * reaches the guard only in normal form (the request-target guard refuses others first; see
 * `targetNotNormal`), where the two are the same.
 */
function apiPath(req: IncomingMessage): string {
  const routed =
    'originalUrl' in req ? `${(req as Request).baseUrl}${(req as Request).path}` : (req.url ?? '').split('?')[0];
  // Express matches routes case-insensitively (`/API/Accounts` is `/api/accounts`): so do the rules.
  const path = routed.toLowerCase();
  return path.startsWith('/api/') ? path.slice(4) : path === '/api' ? '/' : path;
}

/** Endpoints that answer without a credential: signing in needs none. */
function isPublic(path: string): boolean {
  return /^\/auth\/(sign-in|second-factor|sign-out|me|first-run|providers|oidc\/start|oidc\/callback)\/?$/.test(path);
}

function unauthorized(message: string): AppError {
  return new AppError('unauthorized', message);
}

/**
 * Who is asking, and may they. While no account exists and the run has no token, every request is
 * the local user (as before accounts existed). Once one does, every API request needs a session
 * cookie or `Authorization: Bearer` (the run's `--token`, or an API token), except signing in;
 * then the role (and content-type limit) decides. A refusal is a 401 (no or a bad credential) or
 * 403 (not allowed) before any work, so it changes nothing. Whether an author owns a row is
 * decided by the row write itself (see `rowActor`).
 */
export function authGuard(options: AuthGuardOptions): Guard {
  const { accounts } = options;
  const local: Principal = { via: 'local', name: options.editorName, role: 'admin', types: null };
  return (req, res) => {
    const refuse = (error: unknown) => {
      if (error instanceof AppError && error.code === 'unauthorized') {
        res.setHeader('WWW-Authenticate', 'Bearer realm="Quire"');
      }
      return error ?? new AppError('internal_error', 'The credential could not be checked');
    };
    // A delivery's request never starts another delivery: it may read, not write (hook loops).
    const echo = deliveryEchoRefusal(req);
    if (echo) return refuse(echo);
    const path = apiPath(req);
    const bearer = bearerOf(req);
    const cookie = sessionCookieOf(req);
    // The single user's laptop: nothing to check, and "no accounts" was asked lately (no waiting).
    if (bearer === null && cookie === null && !options.runToken && accounts.accountsExistCached() === false) {
      (req as WithPrincipal)[PRINCIPAL] = local;
      return null;
    }
    return identify(options, local, path, bearer, cookie).then((principal) => {
      (req as WithPrincipal)[PRINCIPAL] = principal;
      const refusal = principal ? authorize(options.registry, principal, req, path) : null;
      return refusal ? refuse(refusal) : null;
    }, refuse);
  };
}

/**
 * Whether a request's credential still holds, asked again while a long answer (an event stream) is
 * open: its token not revoked or expired, its session not ended (asking is not activity), or, with
 * neither, the single user's site still without accounts or a run token.
 */
export function credentialCheck(options: AuthGuardOptions): (req: IncomingMessage) => Promise<boolean> {
  return async (req) => {
    const bearer = bearerOf(req);
    if (bearer !== null) {
      if (options.runToken && tokensMatch(bearer, options.runToken)) return true;
      return (await options.tokens.principal(bearer)) !== null;
    }
    const cookie = sessionCookieOf(req);
    if (cookie !== null && (await options.accounts.sessionHolds(cookie))) return true;
    return !options.runToken && !(await options.accounts.accountsExist());
  };
}

/** The principal of a request, null on a public endpoint without one; throws a 401. */
async function identify(
  options: AuthGuardOptions,
  local: Principal,
  path: string,
  bearer: string | null,
  cookie: string | null,
): Promise<Principal | null> {
  if (bearer !== null) {
    if (options.runToken && tokensMatch(bearer, options.runToken)) {
      return { via: 'token', name: options.editorName, role: 'admin', types: null };
    }
    const principal = await options.tokens.principal(bearer);
    if (principal) return principal;
    throw unauthorized('The API token is wrong, revoked or expired');
  }
  if (cookie !== null) {
    const principal = await options.accounts.session(cookie);
    if (principal) return principal;
  }
  if (isPublic(path)) return options.runToken || (await options.accounts.accountsExist()) ? null : local;
  if (!options.runToken && !(await options.accounts.accountsExist())) return local;
  if (cookie !== null) throw unauthorized('Your session has ended; sign in again');
  throw unauthorized(
    options.runToken && !(await options.accounts.accountsExist())
      ? 'This Quire server requires its API token: send Authorization: Bearer <token>'
      : 'Sign in, or send an API token as Authorization: Bearer <token>',
  );
}

/** Why `principal` may not make this request, or null when it may. */
function authorize(
  registry: ContentTypeRegistry,
  principal: Principal,
  req: IncomingMessage,
  path: string,
): AppError | null {
  const method = req.method ?? 'GET';
  const reading = SAFE_METHODS.has(method);
  // A session is a cookie the browser adds by itself: a write must show it comes from the editor
  // (the Origin guard has already refused foreign ones; this refuses writes that name no origin).
  if (principal.via === 'session' && !reading && !req.headers.origin && !req.headers['sec-fetch-site']) {
    return new AppError('forbidden', 'A signed-in write must come from the editor (send Origin), or use an API token');
  }
  if (isPublic(path)) return null;
  // `--require-2fa`: until the account enrols, its session may do nothing else.
  const ownTwoFactor = /^\/account\/two-factor(\/|$)/.test(path);
  if (principal.twoFactorEnrolmentRequired && !ownTwoFactor) {
    return new AppError(
      'two_factor_enrolment_required',
      'This server requires two-factor sign-in for your account: set it up (Account security) before anything else',
    );
  }
  // One's own two-factor sign-in belongs to a signed-in account, whatever its role (not to a token).
  if (ownTwoFactor) {
    return principal.via === 'session'
      ? null
      : new AppError('forbidden', 'Two-factor sign-in is set up by a signed-in account, not with an API token');
  }
  const can = abilitiesOf(principal.role);
  const who = principal.name === null ? `This ${principal.role}` : `${principal.name} (${principal.role})`;
  const denied = (what: string) => new AppError('forbidden', `${who} may not ${what}`);
  if (/^\/(accounts|tokens)(\/|$)/.test(path)) return can.manage_accounts ? null : denied('manage accounts and tokens');
  // Build hooks: their addresses and delivery logs are admins' business, reading included.
  if (/^\/hooks(\/|$)/.test(path)) return can.manage_accounts ? null : denied('manage build hooks');
  // The audit log names accounts, tokens, hooks and every content type: admins' with no type limit.
  if (/^\/audit(\/|$)/.test(path)) {
    return can.manage_accounts && principal.types === null ? null : denied('read the audit log: it is for admins');
  }
  // The first run's starter sets name every content type and its row count: admins', reading included.
  if (/^\/starters(\/|$)/.test(path)) return can.manage_types ? null : denied('choose the starter types');
  // A row's scheduled change: reading it is reading the type; setting it is changing the row.
  const scheduleRoute = /^\/cms\/([^/]+)\/[^/]+\/schedule\/?$/.exec(path);
  if (scheduleRoute) {
    const table = segment(scheduleRoute[1]);
    if (!mayUseType(registry, principal, table, 'table'))
      return denied(`use the content type ${JSON.stringify(table)}`);
    if (reading) return null;
    return can.change_any_row || can.change_own_rows ? null : denied('schedule changes of rows');
  }
  const typeRoute = /^\/cms-content\/([^/]+)\/?$/.exec(path);
  if (path === '/cms-content' || path === '/cms-content/' || typeRoute) {
    if (!reading) return can.manage_types ? null : denied('change content types');
    return typeRoute && !mayUseType(registry, principal, segment(typeRoute[1]), 'slug')
      ? denied(`use the content type ${JSON.stringify(segment(typeRoute[1]))}`)
      : null;
  }
  // A row, its revisions and the type's trash: reading them is reading the type.
  const rowRoute = ROW_PATH.exec(path);
  if (rowRoute) {
    const table = segment(rowRoute[1]);
    if (!mayUseType(registry, principal, table, 'table'))
      return denied(`use the content type ${JSON.stringify(table)}`);
    if (reading) return null;
    // A restore writes over a row or brings one back: changing rows (an author's own, checked by the write).
    if (rowRoute[2]) return can.change_any_row || can.change_own_rows ? null : denied('restore rows');
    if (method === 'POST') return can.create_rows ? null : denied('create rows');
    return can.change_any_row || can.change_own_rows ? null : denied('change or delete rows');
  }
  // Anything else under a type (a route added later) is the type's too: its limit holds there as well.
  const underType = /^\/cms\/([^/]+)\//.exec(path);
  if (underType && !mayUseType(registry, principal, segment(underType[1]), 'table')) {
    return denied(`use the content type ${JSON.stringify(segment(underType[1]))}`);
  }
  if (/^\/uploads\/?$/.test(path) && method === 'POST') return can.upload ? null : denied('upload media');
  // A media asset's description, file and delete: uploading's (an author's own uploads, checked by the library).
  if (/^\/media\/[^/]+(\/file)?\/?$/.test(path) && !reading) return can.upload ? null : denied('change media');
  return reading || can.manage_types ? null : denied('do this');
}

/** A path segment decoded (an undecodable one stays as it is: it names no type). */
function segment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Whether a content-type limit lets the principal at the type a route names. */
function mayUseType(registry: ContentTypeRegistry, principal: Principal, name: string, by: 'table' | 'slug'): boolean {
  if (principal.types === null) return true;
  const type = registry.list().find((candidate) => candidate[by] === name);
  return type ? typeAllowed(principal.types, type) : principal.types.includes(name);
}
