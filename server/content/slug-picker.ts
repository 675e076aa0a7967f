import type { ColumnValue } from '../../common/api-contract.js';
import { slugWithSuffix, uniqueSlug } from '../../common/slug-rules.js';
import type { ContentRepository, StoredRow } from '../db/content-repository.js';
import type { ContentType } from './content-type.js';
import type { ContentWrites, WriteLog } from './content-writes.js';
import type { RowInput } from './row-input.js';
import { assignSlugs } from './slug-columns.js';

/** Candidates probed after a slug hint before reading every `base-N` instead. */
const MAX_SLUG_PROBES = 64;

/**
 * The slugs of a row write (RowService): the shared rules of slug-columns.ts, asked of the write's
 * own transaction, with the read cache's hints of how far a base's taken run reaches.
 */
export class SlugPicker {
  constructor(private readonly writes: ContentWrites) {}

  /** Slug columns filled in by the shared rules, with this write's view of taken slugs. */
  assign(
    repository: ContentRepository,
    type: ContentType,
    input: RowInput,
    current: StoredRow | null,
    id: string,
    lockSlugs: (column: string, base: string) => Promise<void>,
    write?: WriteLog,
  ): Promise<Map<string, ColumnValue>> {
    return assignSlugs(type, input, current, {
      isTaken: (column, slug) => repository.isTaken(type.table, column, slug, id),
      firstFree: async (column, base) => {
        // Writers running in parallel (PostgreSQL) choosing a slug from the same base take turns, each
        // seeing the last one's row, rather than all choosing the same slug and all but one failing.
        // Other bases go on in parallel: the rare base whose numbered slug another base can also
        // give ("news" → "news-2", "News 2") loses a unique-index race and runs again (see `RowService.write`).
        await lockSlugs(column, base);
        return this.freeSlug(repository, type, column, base, id, write);
      },
    });
  }

  /**
   * The first free slug for `base` (`base`, `base-2`, `base-3`...). A create remembers how far the
   * taken run reaches, so the next create with the same base probes one candidate instead of
   * reading every `base-N` (a thousand "Untitled" rows would otherwise make each create slower).
   * Hints are only used and kept while no row has been deleted or renamed since.
   */
  private async freeSlug(
    repository: ContentRepository,
    type: ContentType,
    column: string,
    base: string,
    id: string,
    write: WriteLog | undefined,
  ): Promise<string> {
    // Hints serve creates only: an update's own slug is not "taken" for itself.
    const cache = write?.gapToken === undefined ? null : this.writes.cache;
    const hint = cache?.slugHint(type, column, base);
    let n: number | undefined;
    // Everything up to the hint is taken and nothing was freed since, so the first free candidate
    // after it is the first free one (concurrent creates may have taken a few more meanwhile).
    for (let k = (hint ?? 0) + 1; hint !== undefined && k <= hint + MAX_SLUG_PROBES; k++) {
      if (!(await repository.isTaken(type.table, column, slugWithSuffix(base, k), id))) {
        n = k;
        break;
      }
    }
    if (n === undefined) {
      const taken = await repository.valuesStartingWith(type.table, column, base, id);
      const slug = uniqueSlug(base, (candidate) => taken.has(candidate));
      n = slug === base ? 1 : Number(slug.slice(slug.lastIndexOf('-') + 1));
    }
    const slug = slugWithSuffix(base, n);
    if (cache && write?.gapToken !== undefined) {
      const gapToken = write.gapToken;
      write.whenKept.push(() => cache.rememberSlug(type, column, base, n, gapToken));
    }
    return slug;
  }
}
