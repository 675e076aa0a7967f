import { corsPolicy } from './cors-policy.js';
import { hostGuard, isLoopbackListenAddress, listenHostnames, normalizeHostname } from './host-guard.js';
import { originGuard } from './origin-guard.js';
import type { Guard } from './request-guard.js';
import { requestTargetGuard } from './request-target-guard.js';
import { generateToken, tokenAuth } from './token-auth.js';

/**
 * Who may talk to the server. A server on 127.0.0.1 is reachable by every web page the user
 * opens, so the defaults refuse foreign pages outright; each option widens one thing on purpose.
 */
export interface SecurityOptions {
  /** Hostnames served besides loopback ones, normalized (see `normalizeHostname`). */
  allowedHosts?: readonly string[];
  /** Origins allowed to read the API cross-origin, normalized (see `normalizeOrigin`). */
  corsOrigins?: readonly string[];
  /** When set, every API request needs `Authorization: Bearer <token>` (an admin token for this run). */
  token?: string | null;
  /** Whether the server listens on loopback only (the default); first run is offered only then. */
  loopbackOnly?: boolean;
}

/**
 * The security a server listening on `listenHost` runs with. Beyond loopback (`0.0.0.0`, a LAN
 * address) a token is always required, generated when none is given, and the machine's own
 * addresses are accepted as Host (an IP literal cannot be rebound); names still need allowing.
 */
export function securityFor(
  listenHost: string,
  options: { allowedHosts?: readonly string[]; corsOrigins?: readonly string[]; token?: string | null },
): SecurityOptions & { token: string | null; allowedHosts: string[]; loopbackOnly: boolean } {
  const loopbackOnly = isLoopbackListenAddress(listenHost);
  const allowedHosts = (options.allowedHosts ?? []).map((name) => {
    const hostname = normalizeHostname(name);
    if (hostname === null) throw new Error(`${JSON.stringify(name)} is not a host name`);
    return hostname;
  });
  if (!loopbackOnly) allowedHosts.push(...listenHostnames(listenHost));
  return {
    allowedHosts,
    corsOrigins: options.corsOrigins ?? [],
    token: options.token || (loopbackOnly ? null : generateToken()),
    loopbackOnly,
  };
}

/** The guards, in order: for every route, and the extra ones for the API. */
export interface LocalhostGuards {
  /** Host, request target, CORS and Origin: before any other work. */
  all: Guard[];
  /**
   * Who is asking and may they (the editor's files stay loadable): `auth` when given (accounts,
   * tokens and the run token; see auth-guard.ts), else the run token alone when there is one.
   */
  api: Guard[];
}

/** Builds the guard middleware from the options. */
export function localhostGuards(options: SecurityOptions = {}, auth?: Guard): LocalhostGuards {
  const corsOrigins = options.corsOrigins ?? [];
  return {
    all: [
      hostGuard({ allowedHosts: options.allowedHosts ?? [] }),
      requestTargetGuard,
      corsPolicy({ corsOrigins }),
      originGuard({ corsOrigins }),
    ],
    api: auth ? [auth] : options.token ? [tokenAuth(options.token)] : [],
  };
}
