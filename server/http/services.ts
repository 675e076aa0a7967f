import type { AuditService } from '../audit/audit-service.js';
import type { ChangeFeedService } from '../changes/change-feed-service.js';
import type { EventHub } from '../changes/event-streams.js';
import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import type { ContentTypeService } from '../content/content-type-service.js';
import type { ContentWrites } from '../content/content-writes.js';
import type { RowService } from '../content/row-service.js';
import { isDatabaseUnavailable } from '../db/database.js';
import type { HookService } from '../hooks/hook-service.js';
import type { LocaleService } from '../locales/locale-service.js';
import type { ImageProcess } from '../media/image-process.js';
import type { RevisionService } from '../revisions/revision-service.js';
import type { ScheduleService } from '../schedule/schedule-service.js';

/** What the HTTP handlers call; built once in `app.ts`, the composition root. */
export interface Services {
  registry: ContentTypeRegistry;
  contentTypes: ContentTypeService;
  rows: RowService;
  writes: ContentWrites;
  /** Row revisions, the trash and the content-type change log. */
  revisions: RevisionService;
  /** Scheduled status changes. */
  schedules: ScheduleService;
  /** Build hooks and their delivery. */
  hooks: HookService;
  /** The audit log of security events. */
  audit: AuditService;
  /** The durable change feed (`GET /api/changes`; what `GET /api/events` streams). */
  changes: ChangeFeedService;
  /** The open event streams (`GET /api/events`). */
  events: EventHub;
  /** The site's languages (`GET`/`PUT /api/locales`). */
  locales: LocaleService;
  /** Where uploads are re-encoded and image variants made (a process of its own, started when needed). */
  images: ImageProcess;
}

/**
 * The content type a request names, once no content-type change is under way here, and as another
 * server sharing the database last changed it: a request never plans its SQL against columns a
 * migration is renaming or dropping, or that another server has.
 */
export async function typeByTable({ registry, writes }: Services, table: string): Promise<ContentType> {
  const changing = writes.settled();
  if (changing) await changing;
  const following = registry.follow();
  if (following) await following;
  return registry.requireByTable(table);
}

/**
 * Runs a row read (`read`) with the content type `table` names, as `typeByTable` would give it but
 * without its round trip where other servers share the database: the read runs on the types as
 * loaded and its own statement reads the registry's version (`registry` in its result, see
 * read-marks.ts). Only when that is not the version the types were loaded at, or the read failed
 * or saw none (no row came back), is the version read now; when it moved, the types are reloaded
 * and the read runs again on them, as it would have run after `typeByTable`. A change committed
 * after the read's statement is not the read's to see (nor would it be after `typeByTable`).
 */
export function readWithType<T extends { registry?: number }>(
  services: Services,
  table: string,
  read: (type: ContentType) => Promise<T>,
): Promise<T> {
  return onLoadedType(services, table, read, (value) => value.registry);
}

/**
 * Runs a row write (`write`) as `readWithType` runs a read: on the types as loaded, without a round
 * trip to ask whether another server changed them. The write's transaction checks that with its
 * COMMIT (RowService, postgres-registry-check.ts) and fails, keeping nothing, when they changed; a
 * write that failed for any reason is run again on the types as they are now when the registry's
 * version moved, and its error stands when it did not.
 */
export function writeWithType<T>(
  services: Services,
  table: string,
  write: (type: ContentType) => Promise<T>,
): Promise<T> {
  return onLoadedType(services, table, write, (_, type) => services.registry.versionOf(type));
}

/**
 * Runs `run` on the type as loaded where other servers share the database, and again on the type
 * as it is now when the registry's version moved: `seen` gives the version a successful run is
 * known to have run at (undefined: read it now; a write's COMMIT checked its type's). Without other
 * servers, on the type after `typeByTable`.
 */
async function onLoadedType<T>(
  services: Services,
  table: string,
  run: (type: ContentType) => Promise<T>,
  seen: (value: T, type: ContentType) => number | undefined,
): Promise<T> {
  const { registry, writes } = services;
  const changing = writes.settled();
  if (changing) await changing;
  const loaded = registry.version;
  const type = registry.shared ? registry.findByTable(table) : undefined;
  if (type) {
    let outcome: { value: T } | { error: unknown };
    try {
      outcome = { value: await run(type) };
    } catch (error) {
      // The database gone (a COMMIT of unknown outcome among them) is told as it is: nothing to run again.
      if (isDatabaseUnavailable(error)) throw error;
      // Types as loaded may name a column or table another server has dropped: checked below.
      outcome = { error };
    }
    const version = 'value' in outcome ? seen(outcome.value, type) : undefined;
    if ((version ?? (await registry.versionNow())) === loaded) {
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    }
  }
  return run(await typeByTable(services, table));
}

/** Like `typeByTable`, by the type's slug. */
export async function typeBySlug({ registry, writes }: Services, slug: string): Promise<ContentType> {
  const changing = writes.settled();
  if (changing) await changing;
  const following = registry.follow();
  if (following) await following;
  return registry.requireBySlug(slug);
}
