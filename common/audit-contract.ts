/**
 * The audit log part of the API contract: the shape of `GET /api/audit` and the action codes an
 * event carries. Errors use the one error shape of api-contract.ts.
 */

/** What an audit event records: a machine code, `subject.what_happened`. */
export const AUDIT_ACTIONS = [
  'first_run',
  'sign_in.succeeded',
  'sign_in.failed',
  'sign_in.locked',
  'two_factor.enrolled',
  'two_factor.disabled',
  'two_factor.reset',
  'account.created',
  'account.role_changed',
  'account.types_changed',
  'account.disabled',
  'account.enabled',
  'account.password_changed',
  'account.deleted',
  'token.created',
  'token.revoked',
  'hook.created',
  'hook.changed',
  'hook.deleted',
  'content_type.created',
  'content_type.changed',
  'content_type.deleted',
  'content_type.starters_chosen',
  'locales.changed',
  'backup.restored',
] as const;

/** One of the known action codes (others may add their own: the log stores any code). */
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One recorded event. */
export interface AuditEntry {
  /** Numbers every event in the order it was recorded. */
  id: number;
  /** When, as a server timestamp (UTC `YYYY-MM-DD HH:MM:SS.ffffff`). */
  at: string;
  action: string;
  /** Who: an account's or token's name, `cli`, or null when no one signed in (a failed sign-in). */
  actor: string | null;
  /** The client address as the server saw it; null for the command line. */
  address: string | null;
  /** What it was done to: an account, token, hook or content type's name, or a backup's folder. */
  target: string | null;
  /** A few facts about it (the new role, the fields changed...); never a secret. */
  detail: Record<string, unknown>;
}

/** `GET /api/audit`: newest first. */
export interface AuditListResponse {
  total: number;
  limit: number;
  offset: number;
  /** Days an event is kept before it is purged. */
  retention_days: number;
  events: AuditEntry[];
}
