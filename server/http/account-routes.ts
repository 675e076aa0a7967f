import { Router } from 'express';
import type {
  AccountCreatedResponse,
  AccountListResponse,
  AccountSummary,
  CreateTokenResponse,
  TokenListResponse,
  TokenSummary,
} from '../../common/api-contract.js';
import { bodyMembers, checkBoolean, checkRole } from '../accounts/account-input.js';
import type { AccountChanges, AccountService } from '../accounts/account-service.js';
import type { TokenService } from '../accounts/token-service.js';
import { recordAccountChanged, recordAccountCreated, recordTokenCreated } from '../audit/account-audit.js';
import type { AuditService } from '../audit/audit-service.js';
import { requestActor } from './audit-actor.js';
import { methodNotAllowed } from './error-middleware.js';

/**
 * `/accounts` and `/tokens` (admins only: the auth guard refuses everyone else before these run).
 * Accounts are disabled, never deleted: their names stay in rows' created_by. Answers never hold a
 * password hash, a token's hash, or (except once, at creation) a token. Every change is recorded
 * in the audit log.
 */
export function accountRoutes(accounts: AccountService, tokens: TokenService, audit: AuditService): Router {
  const router = Router();

  router
    .route('/accounts')
    .get(async (_req, res) => {
      const body: AccountListResponse = { accounts: await accounts.list() };
      res.json(body);
    })
    .post(async (req, res) => {
      const input = bodyMembers(req.body, ['name', 'role', 'password', 'content_types']);
      const body: AccountCreatedResponse = await accounts.add({
        name: input.name,
        role: input.role,
        password: input.password,
        content_types: input.content_types,
      });
      await recordAccountCreated(audit, requestActor(req), body);
      res
        .status(201)
        .location(`${req.baseUrl}/accounts/${encodeURIComponent(body.name)}`)
        .json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/accounts/:name')
    .get(async (req, res) => {
      const body: AccountSummary = await accounts.get(req.params.name);
      res.json(body);
    })
    .patch(async (req, res) => {
      const input = bodyMembers(req.body, ['role', 'password', 'disabled', 'content_types']);
      const changes: AccountChanges = {};
      if (input.role !== undefined) changes.role = checkRole(input.role);
      if (input.password !== undefined) changes.password = input.password as string;
      if (input.disabled !== undefined) changes.disabled = checkBoolean(input.disabled, 'disabled');
      if (input.content_types !== undefined) changes.content_types = input.content_types;
      const before = await accounts.get(req.params.name);
      const body: AccountSummary = await accounts.change(req.params.name, changes);
      await recordAccountChanged(audit, requestActor(req), before, changes, body);
      res.json(body);
    })
    .all(methodNotAllowed(['GET', 'PATCH']));

  router
    .route('/tokens')
    .get(async (_req, res) => {
      const body: TokenListResponse = { tokens: await tokens.list() };
      res.json(body);
    })
    .post(async (req, res) => {
      const input = bodyMembers(req.body, ['name', 'role', 'content_types', 'expires_days']);
      const body: CreateTokenResponse = await tokens.add({
        name: input.name,
        role: input.role,
        content_types: input.content_types,
        expires_days: input.expires_days,
      });
      await recordTokenCreated(audit, requestActor(req), body);
      // The token is in this answer only: no cache may keep it.
      res.setHeader('Cache-Control', 'no-store');
      res.status(201).json(body);
    })
    .all(methodNotAllowed(['GET', 'POST']));

  router
    .route('/tokens/:name')
    .delete(async (req, res) => {
      const body: TokenSummary = await tokens.revoke(req.params.name);
      await audit.record({ ...requestActor(req), action: 'token.revoked', target: body.name });
      res.json(body);
    })
    .all(methodNotAllowed(['DELETE']));

  return router;
}
