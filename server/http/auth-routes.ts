import type { IncomingMessage } from 'node:http';
import { type Request, type Response, Router } from 'express';
import { abilitiesOf } from '../../common/access-rules.js';
import type { AuthMeResponse, FirstRunResponse } from '../../common/api-contract.js';
import { bodyMembers } from '../accounts/account-input.js';
import type { AccountService, SecondFactorPending, SignedIn } from '../accounts/account-service.js';
import type { Principal } from '../accounts/principal.js';
import type { SignInAttempt, SignInLimiter } from '../accounts/sign-in-limiter.js';
import type { TwoFactorService } from '../accounts/two-factor-service.js';
import type { AuditService } from '../audit/audit-service.js';
import { AppError } from '../errors/app-error.js';
import { principalOf, SESSION_COOKIE } from './auth-guard.js';
import { clientAddress } from './client-address.js';
import { methodNotAllowed } from './error-middleware.js';

/** What the sign-in routes need. */
export interface AuthRoutesOptions {
  accounts: AccountService;
  limiter: SignInLimiter;
  /** Whether the server listens on loopback only (first run is offered only then). */
  loopbackOnly: boolean;
  /** Whether the run has a token (`--token`, QUIRE_TOKEN): then first run needs it too. */
  runToken: boolean;
  /** Whether passwords sign in (off: `--no-password-sign-in`); first run, which sets one, is offered only then. */
  passwordSignIn?: boolean;
  /** Two-factor sign-in: the second step after a right password, and `/auth/me`'s account state. */
  twoFactor: TwoFactorService;
  /** Where sign-ins (made, failed, refused) and the first run are recorded. */
  audit: AuditService;
}

/** The longest account name an audit event repeats from a sign-in's body (names are checked only on success). */
const AUDITED_NAME_LENGTH = 200;

/** A sign-in's name as the audit log records it: text, cut short; anything else is null. */
function auditedName(name: unknown): string | null {
  return typeof name === 'string' ? name.slice(0, AUDITED_NAME_LENGTH) : null;
}

/** Whether a request comes from this machine (behind a trusted proxy: its client does; see `clientAddress`). */
export function fromLoopback(req: IncomingMessage): boolean {
  const address = clientAddress(req);
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

/**
 * Whether the browser sees the editor over https: the request came over TLS, or its own origin
 * (checked by the Origin guard) says https, as behind a TLS proxy. Then the cookie is `Secure`.
 */
function overHttps(req: Request): boolean {
  return req.secure || (req.headers.origin ?? '').startsWith('https://');
}

/**
 * The session cookie, after a password or a single sign-on (`https`: `Secure`; by default as the
 * request says). `HttpOnly` (no script reads it), `SameSite=Strict` (no other site's page or
 * link sends it), `Secure` over https. It has no expiry of its own: the server ends a session
 * after `QUIRE_SESSION_HOURS` without use, and the browser forgets the cookie when it closes.
 */
export function setSessionCookie(req: Request, res: Response, value: string | null, https = overHttps(req)): void {
  const parts = [`${SESSION_COOKIE}=${value ?? ''}`, 'Path=/', 'HttpOnly', 'SameSite=Strict'];
  if (value === null) parts.push('Max-Age=0');
  if (https) parts.push('Secure');
  res.setHeader('Set-Cookie', parts.join('; '));
}

/** Whether a request comes from a signed-in person (a session of an account), who has preferences and a second factor. */
function person(principal: Principal | null): principal is Principal & { name: string } {
  return principal?.via === 'session' && principal.name !== null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `/auth/sign-in`, `/auth/sign-out`, `/auth/me` (and its preferences), `/auth/first-run`. */
export function authRoutes(options: AuthRoutesOptions): Router {
  const { accounts, limiter, audit } = options;
  const router = Router();

  // First run makes an admin: on a server with a run token only its holder (an admin credential) may.
  const mayRunFirst = (req: IncomingMessage, principal: Principal | null) =>
    options.passwordSignIn !== false &&
    options.loopbackOnly &&
    fromLoopback(req) &&
    (!options.runToken || principal?.role === 'admin');
  const me = async (req: IncomingMessage, principal: Principal | null): Promise<AuthMeResponse> => {
    const exist = await accounts.accountsExist();
    return {
      signed_in: principal !== null,
      via: principal?.via ?? null,
      name: principal?.name ?? null,
      role: principal?.role ?? null,
      content_types: principal?.types ?? null,
      can: abilitiesOf(principal?.role ?? null),
      accounts_exist: exist,
      first_run: !exist && mayRunFirst(req, principal),
      two_factor: person(principal) ? await options.twoFactor.state(principal.name) : null,
      language: person(principal) ? await accounts.languageOf(principal.name) : null,
    };
  };
  // A right password of an account with two-factor sign-in: no session yet, only the challenge's
  // one-time token. The password stops counting as a failure, but the name's earlier failures stay
  // until the code is right too (a known password must not reset the count of guessed codes).
  const secondFactorRequired = async (
    req: Request,
    res: Response,
    attempt: SignInAttempt,
    pending: SecondFactorPending,
  ) => {
    attempt.withdrawn();
    res.setHeader('Cache-Control', 'no-store');
    res.json({ ...(await me(req, null)), second_factor_required: true, second_factor_token: pending.challenge });
  };
  const signedIn = async (
    req: Request,
    res: Response,
    session: SignedIn,
    status: number,
    inherited: Pick<FirstRunResponse, 'inherited_rows' | 'notice'> = {},
  ) => {
    setSessionCookie(req, res, session.cookie);
    const body: FirstRunResponse = { ...(await me(req, session.principal)), ...inherited };
    res.status(status).json(body);
  };

  router
    .route('/auth/me')
    .get(async (req, res) => {
      res.json(await me(req, principalOf(req)));
    })
    // The signed-in person's own preferences: only a session is a person with an account to keep them.
    .patch(async (req, res) => {
      const principal = principalOf(req);
      if (principal === null) throw new AppError('unauthorized', 'Sign in to change your preferences');
      if (!person(principal)) {
        throw new AppError(
          'forbidden',
          'Preferences belong to an account: sign in as a person (tokens and the local user have none)',
        );
      }
      const { language } = bodyMembers(req.body, ['language']);
      if (language !== undefined) await accounts.setLanguage(principal.name, language);
      res.setHeader('Cache-Control', 'no-store');
      res.json(await me(req, principal));
    })
    .all(methodNotAllowed(['GET', 'PATCH']));

  router
    .route('/auth/sign-in')
    .post(async (req, res) => {
      const { name, password, code } = bodyMembers(req.body, ['name', 'password', 'code']);
      // With a code, the password and the second factor are checked together (one step), which
      // also signs in a name that guesses have locked (see SignInLimiter.attempt, `both`).
      const withCode = code !== undefined && code !== null && code !== '';
      // Counted before the password is checked: attempts sent at once cannot pass the limit together.
      const address = clientAddress(req);
      const attempt = limiter.attempt(address, name, withCode ? 'both' : 'password');
      const event = { actor: null, address, target: auditedName(name) };
      if (attempt.refusedFor > 0) {
        await audit.record({ ...event, action: 'sign_in.locked', detail: { retry_after_ms: attempt.refusedFor } });
        res.setHeader('Retry-After', String(Math.ceil(attempt.refusedFor / 1000)));
        throw new AppError(
          'too_many_requests',
          'Too many failed sign-ins from this address or at this name; try again later',
        );
      }
      if (withCode) {
        const account = await accounts.checkPassword(name, password).catch((error: unknown) => {
          attempt.withdrawn();
          throw error;
        });
        if (!account) attempt.passwordWrong();
        const right = account !== null && (await options.twoFactor.redeemCodeOf(account.id, code));
        if (!account || !right) {
          await audit.record({ ...event, action: 'sign_in.failed', detail: { second_factor: true } });
          await sleep(attempt.delayMs);
          throw new AppError('unauthorized', 'Wrong name, password or code, or the account is disabled');
        }
        attempt.succeeded();
        await audit.record({
          ...event,
          actor: account.name,
          action: 'sign_in.succeeded',
          detail: { second_factor: true },
        });
        return signedIn(req, res, await accounts.startSessionFor(account.name), 200);
      }
      const session = await accounts.signIn(name, password).catch((error: unknown) => {
        attempt.withdrawn();
        throw error;
      });
      if (!session) {
        await audit.record({ ...event, action: 'sign_in.failed' });
        // Slowed after a few failures, refused (above) after many; never for good.
        await sleep(attempt.delayMs);
        throw new AppError('unauthorized', 'Wrong name or password, or the account is disabled');
      }
      if ('challenge' in session) return secondFactorRequired(req, res, attempt, session);
      attempt.succeeded();
      await audit.record({ ...event, actor: session.principal.name, action: 'sign_in.succeeded' });
      await signedIn(req, res, session, 200);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/auth/second-factor')
    .post(async (req, res) => {
      const { token, code } = bodyMembers(req.body, ['token', 'code']);
      const account = await options.twoFactor.challenged(typeof token === 'string' ? token : null);
      // A guessed code counts as a guessed password does: at the address, and at the account's name.
      const address = clientAddress(req);
      const attempt = limiter.attempt(address, account?.name ?? null, 'code');
      const event = { actor: null, address, target: account?.name ?? null, detail: { second_factor: true } };
      if (attempt.refusedFor > 0) {
        await audit.record({ ...event, action: 'sign_in.locked' });
        res.setHeader('Retry-After', String(Math.ceil(attempt.refusedFor / 1000)));
        throw new AppError(
          'too_many_requests',
          'Too many wrong codes from this address or at this name; try again later',
        );
      }
      const right =
        account !== undefined &&
        (await options.twoFactor.redeemCode(account, code).catch((error: unknown) => {
          attempt.withdrawn();
          throw error;
        }));
      // The challenge completes once: two right codes sent together start one session.
      if (!right || !(await options.twoFactor.finishChallenge(token as string))) {
        await audit.record({ ...event, action: 'sign_in.failed' });
        await sleep(attempt.delayMs);
        throw new AppError(
          'unauthorized',
          account === undefined
            ? 'This sign-in has ended (the code is asked for within 5 minutes): sign in again with your password'
            : 'The code is wrong or was already used',
        );
      }
      attempt.succeeded();
      await audit.record({ ...event, actor: account.name, action: 'sign_in.succeeded' });
      await signedIn(req, res, await accounts.startSessionFor(account.name), 200);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/auth/sign-out')
    .post(async (req, res) => {
      const principal = principalOf(req);
      if (principal?.sessionId) await accounts.signOut(principal.sessionId);
      setSessionCookie(req, res, null);
      res.json(await me(req, null));
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/auth/first-run')
    .post(async (req, res) => {
      if (!options.loopbackOnly || !fromLoopback(req)) {
        throw new AppError(
          'forbidden',
          'The first account can be made here only on a server that listens on this machine alone; run quire user add NAME --role admin',
        );
      }
      if (!mayRunFirst(req, principalOf(req))) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="Quire"');
        throw new AppError(
          'unauthorized',
          'This server was started with an API token (--token or QUIRE_TOKEN): send it as Authorization: Bearer <token> to make the first account',
        );
      }
      const { name, password } = bodyMembers(req.body, ['name', 'password']);
      const account = await accounts.addFirst({ name, password });
      await audit.record({
        actor: account.name,
        address: clientAddress(req),
        action: 'first_run',
        target: account.name,
      });
      // Rows made under the editor name before accounts existed are the first admin's when it takes that name: said so.
      const inherited = { inherited_rows: account.inherited_rows, notice: account.notice };
      await signedIn(req, res, await accounts.startSessionFor(account.name), 201, inherited);
    })
    .all(methodNotAllowed(['POST']));

  return router;
}
