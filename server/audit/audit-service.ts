import type { Kysely } from 'kysely';
import type { AuditEntry, AuditListResponse } from '../../common/audit-contract.js';
import { timestampNow } from '../../common/datetime-syntax.js';
import { type AuditFilter, AuditRepository, type AuditRow } from '../db/repositories/audit-repository.js';
import type { Page } from '../db/repositories/revision-repository.js';
import type { QuireDatabase } from '../db/schema.js';

/** Days an audit event is kept by default (`--audit-days`, QUIRE_AUDIT_DAYS). */
export const DEFAULT_AUDIT_DAYS = 365;

/** How often events older than the retention are purged while the server runs. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Detail members whose names say they could hold a secret: dropped before anything is stored. */
const SECRET_NAME = /password|secret|token|totp|recovery|code|cookie|hash|otp|key/i;

/** One security event to record. */
export interface AuditEvent {
  /** A code from AUDIT_ACTIONS (common/audit-contract.ts). */
  action: string;
  /** An account's or token's name, `cli`, or null when no one is known. */
  actor: string | null;
  /** The client address as the sign-in limiter sees it (`clientAddress`); null off the network. */
  address?: string | null;
  target?: string | null;
  /** A few facts about it; members named like secrets are dropped. */
  detail?: Record<string, unknown>;
}

/** How the audit log is kept. */
export interface AuditOptions {
  /** Days an event is kept before the purge removes it. */
  days?: number;
  /** The clock events are stamped and purged by (tests move it). */
  now?: () => Date;
  /** Where a failure to record is reported (recording never fails the action it records). */
  log?: (message: string, error: unknown) => void;
}

/** Where the audit log is kept, and how. */
export interface AuditServiceOptions extends AuditOptions {
  db: Kysely<QuireDatabase> | Kysely<unknown>;
}

/**
 * The append-only audit log of security events: `record` appends one, `list` reads them newest
 * first, and the purge (on start, then hourly) removes those older than the retention. Nothing
 * here changes or removes a single event.
 */
export class AuditService {
  readonly days: number;
  private readonly now: () => Date;
  private readonly log: (message: string, error: unknown) => void;
  private readonly repository: AuditRepository;
  private timer: NodeJS.Timeout | null = null;

  constructor(options: AuditServiceOptions) {
    this.repository = new AuditRepository(options.db);
    this.days = options.days ?? DEFAULT_AUDIT_DAYS;
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? ((message, error) => console.error(message, error));
  }

  /**
   * Appends `event`, stamped now. A failure is reported, not thrown: the action it records has
   * already happened and its caller's answer must say so.
   */
  async record(event: AuditEvent): Promise<void> {
    try {
      await this.repository.insert({
        at: timestampNow(this.now()),
        action: event.action,
        actor: storable(event.actor),
        address: storable(event.address ?? null),
        target: storable(event.target ?? null),
        detail: JSON.stringify(withoutSecrets(event.detail ?? {})),
      });
    } catch (error) {
      this.log(`Recording the audit event ${event.action} failed:`, error);
    }
  }

  /** One page of the events `filter` selects, newest first. */
  async list(filter: AuditFilter, page: Page): Promise<AuditListResponse> {
    const { rows, total } = await this.repository.list(filter, page);
    return { total, limit: page.limit, offset: page.offset, retention_days: this.days, events: rows.map(entryOf) };
  }

  /** Removes the events older than the retention; how many went. */
  async purge(): Promise<number> {
    return this.repository.purgeBefore(timestampNow(new Date(this.now().getTime() - this.days * DAY_MS)));
  }

  /** Purges now, then every hour until `stop`; a failed purge is reported and tried again next time. */
  async start(log: (message: string, error: unknown) => void): Promise<void> {
    const run = () => this.purge().catch((error) => log('Purging the audit log failed:', error));
    await run();
    this.timer = setInterval(run, PURGE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}

/** The longest actor, address or target kept: a refused sign-in's name is whatever was sent. */
const MAX_TEXT = 200;

/**
 * `text` as every engine stores it: NUL (which PostgreSQL's text cannot hold) as U+FFFD, and cut to
 * MAX_TEXT characters, so a hostile name is still recorded, and recorded small.
 */
export function storable(text: string | null): string | null {
  if (text === null) return null;
  const clean = text.replaceAll('\u0000', '\uFFFD');
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT)}…` : clean;
}

/** `detail` without the members (at any depth) whose names say they could hold a secret. */
export function withoutSecrets(detail: Record<string, unknown>): Record<string, unknown> {
  const clean = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(clean);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .filter(([name]) => !SECRET_NAME.test(name))
        .map(([name, member]) => [name, clean(member)]),
    );
  };
  return clean(detail) as Record<string, unknown>;
}

/** A stored event as the API answers it. */
function entryOf(row: AuditRow): AuditEntry {
  let detail: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(row.detail);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) detail = parsed as Record<string, unknown>;
  } catch {
    // A damaged detail reads as none: the rest of the event still stands.
  }
  return {
    id: row.id,
    at: row.at,
    action: row.action,
    actor: row.actor,
    address: row.address,
    target: row.target,
    detail,
  };
}
