import { type Request, type Response, Router } from 'express';
import type { AuthProvidersResponse } from '../../common/single-sign-on-rules.js';
import { type SignOnFlow, SingleSignOnFailure, type SingleSignOnService } from '../accounts/single-sign-on-service.js';
import { AppError } from '../errors/app-error.js';
import { cookieOf } from './auth-guard.js';
import { setSessionCookie } from './auth-routes.js';
import { clientAddress } from './client-address.js';
import { methodNotAllowed } from './error-middleware.js';

/** Where the provider sends the browser back, under the server's own origin (or `--public-url`). */
export const CALLBACK_PATH = '/api/auth/oidc/callback';

/** Keeps a started sign-in's state, nonce and PKCE verifier in the browser until the callback. */
const FLOW_COOKIE = 'quire_oidc';

/** How long a started sign-in may take at the provider before its callback is refused. */
const FLOW_SECONDS = 600;

/** One sign-in through the provider, as the audit log records it (the service in server/audit/ fits). */
export interface SignOnRecorder {
  record(event: {
    action: string;
    actor: string | null;
    address?: string | null;
    target?: string | null;
    detail?: Record<string, unknown>;
  }): Promise<void>;
}

/** What the single sign-on routes need. */
export interface SingleSignOnRoutesOptions {
  /** The provider's sign-in, or null when none is configured. */
  singleSignOn: SingleSignOnService | null;
  /** Whether `POST /api/auth/sign-in` (and first run) take a password (off: `--no-password-sign-in`). */
  passwordSignIn: boolean;
  /** The origin browsers reach the server at (`--public-url`), when a proxy hides it; else the request's. */
  publicUrl: string | null;
  audit?: SignOnRecorder;
  /** Where a provider that failed is reported (its reason is not shown to the person). */
  log: (message: string, error: unknown) => void;
}

const FLOW_PART = /^[A-Za-z0-9_-]{20,128}$/;

/** The started sign-in a callback's cookie holds, or null when it has none or it is not one of ours. */
function flowOf(req: Request): SignOnFlow | null {
  const [state, nonce, verifier, ...rest] = (cookieOf(req, FLOW_COOKIE) ?? '').split('.');
  if (rest.length > 0 || ![state, nonce, verifier].every((part) => part !== undefined && FLOW_PART.test(part))) {
    return null;
  }
  return { state, nonce, verifier } as SignOnFlow;
}

/**
 * `GET /auth/providers` (how to sign in here), `GET /auth/oidc/start` (off to the provider) and
 * `GET /auth/oidc/callback` (back from it: signed in, or the sign-in page with `sso_error`); and,
 * with password sign-in off, the 403 of `POST /auth/sign-in` and `/auth/first-run`. Mounted before
 * the password routes.
 */
export function singleSignOnRoutes(options: SingleSignOnRoutesOptions): Router {
  const { singleSignOn } = options;
  const router = Router();
  const origin = (req: Request) => options.publicUrl ?? `${req.protocol}://${req.headers.host}`;
  const https = (req: Request) => origin(req).startsWith('https://') || req.secure;
  const redirectUri = (req: Request) => `${origin(req)}${CALLBACK_PATH}`;
  // Lax, not Strict: the callback is a top-level navigation from the provider's site, and must carry it.
  const flowCookie = (req: Request, value: string | null) =>
    [
      `${FLOW_COOKIE}=${value ?? ''}`,
      'Path=/api/auth/oidc',
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${value === null ? 0 : FLOW_SECONDS}`,
      ...(https(req) ? ['Secure'] : []),
    ].join('; ');

  router
    .route('/auth/providers')
    .get((_req, res) => {
      const answer: AuthProvidersResponse = {
        password: options.passwordSignIn,
        single_sign_on: singleSignOn ? { name: singleSignOn.config.name, start_url: '/api/auth/oidc/start' } : null,
      };
      res.json(answer);
    })
    .all(methodNotAllowed(['GET']));

  if (!options.passwordSignIn) {
    const off = () => {
      const how = singleSignOn
        ? `sign in with ${singleSignOn.config.name}`
        : 'an admin manages accounts with quire user';
      throw new AppError('forbidden', `Password sign-in is turned off on this server: ${how}`, undefined, {
        code: 'password_sign_in_off',
      });
    };
    router.post('/auth/sign-in', off);
    router.post('/auth/first-run', off);
  }

  if (singleSignOn === null) return router;

  const toSignInPage = (res: Response, code: string) => res.redirect(303, `/?sso_error=${encodeURIComponent(code)}`);

  router
    .route('/auth/oidc/start')
    .get(async (req, res) => {
      try {
        const { url, flow } = await singleSignOn.start(redirectUri(req));
        res.setHeader('Set-Cookie', flowCookie(req, [flow.state, flow.nonce, flow.verifier].join('.')));
        res.redirect(303, url.href);
      } catch (error) {
        if (!(error instanceof SingleSignOnFailure)) throw error;
        options.log('Single sign-on could not start:', error.message);
        toSignInPage(res, error.code);
      }
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/auth/oidc/callback')
    .get(async (req, res) => {
      const address = clientAddress(req);
      const callback = new URL(req.originalUrl, 'http://callback.invalid');
      // One use: a second visit of the same callback URL finds no flow.
      const cookies = [flowCookie(req, null)];
      try {
        const signedIn = await singleSignOn.finish(callback, flowOf(req), redirectUri(req));
        setSessionCookie(req, res, signedIn.cookie, https(req));
        cookies.push(String(res.getHeader('Set-Cookie')));
        res.setHeader('Set-Cookie', cookies);
        await options.audit?.record({
          action: 'sign_in.succeeded',
          actor: signedIn.name,
          address,
          target: signedIn.name,
          detail: { via: 'single_sign_on', created: signedIn.created },
        });
        res.redirect(303, '/');
      } catch (error) {
        if (!(error instanceof SingleSignOnFailure)) throw error;
        if (error.code === 'sso_unavailable') options.log('Single sign-on failed:', error.message);
        await options.audit?.record({
          action: 'sign_in.failed',
          actor: null,
          address,
          target: error.account,
          detail: { via: 'single_sign_on', reason: error.code },
        });
        res.setHeader('Set-Cookie', cookies);
        toSignInPage(res, error.code);
      }
    })
    .all(methodNotAllowed(['GET']));

  return router;
}
