/**
 * The scheduled publishing and build hooks part of the API contract: the shapes of
 * `/api/cms/:type/:id/schedule` and `/api/hooks...`, and the body a hook receives. Errors use the
 * one error shape of api-contract.ts.
 */
import type { ContentRow } from './api-contract.js';

/** A row's pending status change: `status` at `at` (UTC, `YYYY-MM-DD HH:MM:SS`). */
export interface RowSchedule {
  status: string;
  at: string;
  /** Who scheduled it: the change is written in their name. */
  by: string | null;
  /**
   * Present while the change waits on something other than its time: `account_disabled` while the
   * account it is written in the name of is disabled (made once that account is enabled again).
   */
  held?: 'account_disabled';
}

/** A row as the reads return it: with its pending change, or null. */
export type ScheduledRow = ContentRow & { schedule: RowSchedule | null };

/** `POST /api/cms/:type/:id/schedule`. `at` is UTC (`2026-12-01 07:00:00`, ISO with `T`/`Z` accepted). */
export interface ScheduleRequest {
  status: string;
  at: string;
}

/** `POST` and `DELETE /api/cms/:type/:id/schedule`: the row's pending change now (null once cancelled). */
export interface ScheduleResponse {
  id: string;
  schedule: RowSchedule | null;
}

/** What a change can be, for a hook's filter and in its events. */
export const HOOK_ACTIONS = ['create', 'update', 'delete', 'restore'] as const;
export type HookAction = (typeof HOOK_ACTIONS)[number];

/** A hook as the API shows it (its secret never: only whether it has one). */
export interface HookSummary {
  id: string;
  url: string;
  /** Content types (tables) whose changes it receives; null: all. */
  content_types: string[] | null;
  /** Which changes; null: all. */
  actions: HookAction[] | null;
  has_secret: boolean;
  created_at: string;
  created_by: string | null;
  /** Events waiting to be delivered. */
  waiting: number;
  /** Failed deliveries in a row (0 once one succeeds). */
  failures: number;
  /** When the next retry may start, while failing; else null. */
  retry_at: string | null;
}

/** `POST /api/hooks` and `PATCH /api/hooks/:id`. `secret` signs deliveries; null removes it. */
export interface HookRequest {
  url?: string;
  content_types?: string[] | null;
  actions?: HookAction[] | null;
  secret?: string | null;
}

/** `POST /api/hooks` (201): the hook, and its secret this once. */
export type HookCreatedResponse = HookSummary & { secret: string | null };

/** `GET /api/hooks`. */
export interface HookListResponse {
  hooks: HookSummary[];
}

/** One delivery attempt. */
export interface HookDelivery {
  id: number;
  at: string;
  /** delivered, failed (to be retried), gave_up (failing for a day: its events dropped), test_delivered, test_failed. */
  status: 'delivered' | 'failed' | 'gave_up' | 'test_delivered' | 'test_failed';
  /** The receiver's HTTP status, or null when none came (refused, timed out). */
  response_code: number | null;
  /** Which attempt at these events (1 for the first). */
  attempt: number;
  /** Events in the delivery. */
  events: number;
  error: string | null;
}

/** `GET /api/hooks/:id/deliveries`: newest first. */
export interface HookDeliveryListResponse {
  total: number;
  limit: number;
  offset: number;
  deliveries: HookDelivery[];
}

/** `POST /api/hooks/:id/test`: the test delivery's outcome. */
export type HookTestResponse = HookDelivery;

/** One change, as a hook receives it. `type` is the content type's table, `id` the row's id. */
export interface HookEvent {
  event: 'content.change' | 'test';
  type: string;
  id: string;
  action: HookAction | 'test';
  /** When the change was committed, a server timestamp (UTC). */
  at: string;
  by: string | null;
  /** The change feed's cursor of this change (`GET /api/changes?since=`); absent for a test event. */
  cursor?: string;
  /**
   * The locales the change touched, as the change feed names them: of a type with localized columns,
   * the locales whose own values it changed (`[]` for a change of shared fields only, a scheduled
   * status change included); absent for a delete, other types' changes and a test event.
   */
  locales?: string[];
}

/**
 * The JSON body POSTed to a hook: the newest event's members at the top (so a receiver that just
 * rebuilds needs nothing else), and every event of the delivery (changes within the debounce
 * window, oldest first) in `events`. Signed: `X-Quire-Signature: sha256=<hex HMAC-SHA256 of the
 * body with the hook's secret>`.
 */
export type HookBody = HookEvent & { events: HookEvent[] };
