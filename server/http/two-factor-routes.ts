import { setTimeout as sleep } from 'node:timers/promises';
import { type Request, Router } from 'express';
import type { TwoFactorConfirmedResponse, TwoFactorStatus } from '../../common/two-factor-contract.js';
import { bodyMembers } from '../accounts/account-input.js';
import type { SignInLimiter } from '../accounts/sign-in-limiter.js';
import type { TwoFactorService } from '../accounts/two-factor-service.js';
import type { AuditService } from '../audit/audit-service.js';
import { AppError } from '../errors/app-error.js';
import { requestActor } from './audit-actor.js';
import { principalOf } from './auth-guard.js';
import { clientAddress } from './client-address.js';
import { methodNotAllowed } from './error-middleware.js';

/** The signed-in account's name (the auth guard lets only sessions here). */
function ownName(req: Request): string {
  const name = principalOf(req)?.name;
  if (!name) throw new AppError('forbidden', 'Two-factor sign-in is set up by a signed-in account');
  return name;
}

/**
 * `/account/two-factor/*`: one's own two-factor sign-in (any signed-in account; the only routes
 * open to a session that `--require-2fa` holds until it enrols), and an admin's reset of another
 * account's (`DELETE /accounts/:name/two-factor`, admins only by the auth guard). The secret is
 * in the enrolment's answer only, the recovery codes in the confirmation's: neither is kept by
 * any cache, nor shown again. Turning it on, off, and an admin's reset are recorded in the audit log.
 */
export function twoFactorRoutes(twoFactor: TwoFactorService, limiter: SignInLimiter, audit: AuditService): Router {
  const router = Router();

  router
    .route('/account/two-factor')
    .get(async (req, res) => {
      const body: TwoFactorStatus = await twoFactor.state(ownName(req));
      res.json(body);
    })
    .all(methodNotAllowed(['GET']));

  router
    .route('/account/two-factor/enrol')
    .post(async (req, res) => {
      const body = await twoFactor.beginEnrolment(ownName(req));
      res.setHeader('Cache-Control', 'no-store');
      res.json(body);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/account/two-factor/confirm')
    .post(async (req, res) => {
      const name = ownName(req);
      const { code } = bodyMembers(req.body, ['code']);
      const recovery_codes = await twoFactor.confirmEnrolment(name, code);
      await audit.record({ ...requestActor(req), action: 'two_factor.enrolled', target: name });
      const body: TwoFactorConfirmedResponse = { status: await twoFactor.state(name), recovery_codes };
      res.setHeader('Cache-Control', 'no-store');
      res.json(body);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/account/two-factor/disable')
    .post(async (req, res) => {
      const name = ownName(req);
      const { password, code } = bodyMembers(req.body, ['password', 'code']);
      // A password and a code guessed here count as at sign-in (a session left open must not be a way to guess).
      const attempt = limiter.attempt(clientAddress(req), name, 'code');
      if (attempt.refusedFor > 0) {
        res.setHeader('Retry-After', String(Math.ceil(attempt.refusedFor / 1000)));
        throw new AppError('too_many_requests', 'Too many wrong passwords or codes at this name; try again later');
      }
      try {
        await twoFactor.disable(name, password, code);
      } catch (error) {
        if (error instanceof AppError && error.code === 'unauthorized') await sleep(attempt.delayMs);
        else attempt.withdrawn();
        throw error;
      }
      attempt.succeeded();
      await audit.record({ ...requestActor(req), action: 'two_factor.disabled', target: name });
      const body: TwoFactorStatus = await twoFactor.state(name);
      res.json(body);
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/accounts/:name/two-factor')
    .delete(async (req, res) => {
      const wasOn = await twoFactor.reset(req.params.name);
      await audit.record({
        ...requestActor(req),
        action: 'two_factor.reset',
        target: req.params.name,
        detail: { was_on: wasOn },
      });
      const body: TwoFactorStatus = await twoFactor.state(req.params.name);
      res.json(body);
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
