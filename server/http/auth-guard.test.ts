import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountService } from '../accounts/account-service.js';
import type { Principal } from '../accounts/principal.js';
import type { TokenService } from '../accounts/token-service.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import { rawRequest } from '../test-support/hostile-http.js';
import { authGuard } from './auth-guard.js';
import { errorMiddleware } from './error-middleware.js';
import { guardMiddleware } from './request-guard.js';

/**
 * The auth guard alone, in front of a router, without the request-target guard that normally
 * refuses odd targets first: it must decide on the path the router matches, whatever the raw
 * target looks like.
 */

const VIEWER: Principal = { via: 'token', name: 'build', role: 'viewer', types: null };

let server: Server;
let origin: string;

beforeAll(async () => {
  const guard = authGuard({
    accounts: { accountsExistCached: () => true, accountsExist: async () => true } as unknown as AccountService,
    tokens: {
      principal: async (token: string) => (token === 'viewer-token' ? VIEWER : null),
    } as unknown as TokenService,
    registry: { list: () => [] } as unknown as ContentTypeRegistry,
    runToken: null,
    editorName: null,
  });
  const app = express();
  const api = express.Router();
  api.use(guardMiddleware([guard]));
  api.get('/accounts', (_req, res) => {
    res.json({ accounts: ['the secret list'] });
  });
  api.get('/cms/:type', (req, res) => {
    res.json({ type: req.params.type });
  });
  app.use('/api', api);
  app.use(errorMiddleware({ log: () => {} }));
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('authGuard', () => {
  it('refuses a viewer the accounts by every target the router serves as /api/accounts', async () => {
    for (const path of ['/api/accounts', '/api/accounts#', '/api/accounts#x/y', '/API/Accounts/']) {
      const answer = await rawRequest(origin, { path, headers: { authorization: 'Bearer viewer-token' } });
      expect(answer.status, `${path}: ${answer.text}`).toBe(403);
      expect(answer.body.error.code).toBe('forbidden');
      expect(answer.text).not.toContain('secret');
    }
  });

  it('lets the viewer read what its role may', async () => {
    const answer = await rawRequest(origin, {
      path: '/api/cms/news',
      headers: { authorization: 'Bearer viewer-token' },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ type: 'news' });
  });
});
