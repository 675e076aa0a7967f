import type { ContentType } from '../content/content-type.js';
import type { ContentTypeRegistry } from '../content/content-type-registry.js';
import type { ContentTypeService } from '../content/content-type-service.js';
import type { ContentWrites } from '../content/content-writes.js';
import type { RowService } from '../content/row-service.js';
import type { HookService } from '../hooks/hook-service.js';
import type { RevisionService } from '../revisions/revision-service.js';
import type { ScheduleService } from '../schedule/schedule-service.js';

/** What the HTTP handlers call; built once in `app.ts`. */
export interface Services {
  registry: ContentTypeRegistry;
  contentTypes: ContentTypeService;
  rows: RowService;
  writes: ContentWrites;
  /** Row revisions, the trash and the content-type change log. */
  revisions?: RevisionService;
  /** Scheduled status changes (issue 15). */
  schedules?: ScheduleService;
  /** Build hooks and their delivery (issue 15). */
  hooks?: HookService;
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

/** Like `typeByTable`, by the type's slug. */
export async function typeBySlug({ registry, writes }: Services, slug: string): Promise<ContentType> {
  const changing = writes.settled();
  if (changing) await changing;
  const following = registry.follow();
  if (following) await following;
  return registry.requireBySlug(slug);
}
