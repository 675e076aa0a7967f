import type { IncomingMessage } from 'node:http';
import type { AuditActor } from '../audit/account-audit.js';
import { principalOf } from './auth-guard.js';
import { clientAddress } from './client-address.js';

/**
 * Who makes a request, for the audit log: the signed-in account's or the token's name (the editor
 * name for a local or run-token request), and the client address the sign-in limiter uses.
 */
export function requestActor(req: IncomingMessage): AuditActor {
  return { actor: principalOf(req)?.name ?? null, address: clientAddress(req) };
}
