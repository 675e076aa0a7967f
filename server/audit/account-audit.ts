import type { AccountSummary, TokenSummary } from '../../common/api-contract.js';
import type { AccountChanges } from '../accounts/account-service.js';
import type { AuditService } from './audit-service.js';

/** Who did something and from where: an audit event's actor and address. */
export interface AuditActor {
  actor: string | null;
  address: string | null;
}

/** The command line's actor: no address, the name `cli`. */
export const CLI_ACTOR: AuditActor = { actor: 'cli', address: null };

/** Records a new account: its name, role and content-type limit. */
export async function recordAccountCreated(audit: AuditService, by: AuditActor, account: AccountSummary) {
  await audit.record({
    ...by,
    action: 'account.created',
    target: account.name,
    detail: { role: account.role, content_types: account.content_types },
  });
}

/**
 * Records what an account change did, one event per kind of change (role, content types,
 * disabled or enabled, password), each with what it was and is now; the password only as the
 * fact that it changed.
 */
export async function recordAccountChanged(
  audit: AuditService,
  by: AuditActor,
  before: AccountSummary,
  changes: AccountChanges,
  after: AccountSummary,
): Promise<void> {
  const target = after.name;
  if (changes.role !== undefined && before.role !== after.role) {
    await audit.record({
      ...by,
      action: 'account.role_changed',
      target,
      detail: { from: before.role, to: after.role },
    });
  }
  if (changes.content_types !== undefined && !sameTypes(before.content_types, after.content_types)) {
    await audit.record({
      ...by,
      action: 'account.types_changed',
      target,
      detail: { from: before.content_types, to: after.content_types },
    });
  }
  if (changes.disabled !== undefined && before.disabled !== after.disabled) {
    await audit.record({ ...by, action: after.disabled ? 'account.disabled' : 'account.enabled', target });
  }
  if (changes.password !== undefined) await audit.record({ ...by, action: 'account.password_changed', target });
}

function sameTypes(a: string[] | null, b: string[] | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Records a new API token: its name, role, content-type limit and expiry (never the token itself). */
export async function recordTokenCreated(audit: AuditService, by: AuditActor, token: TokenSummary): Promise<void> {
  await audit.record({
    ...by,
    action: 'token.created',
    target: token.name,
    detail: { role: token.role, content_types: token.content_types, expires_at: token.expires_at },
  });
}
