import type { ColumnValue } from '../../common/api-contract.js';
import { slugWithSuffix, uniqueSlug } from '../../common/slug-rules.js';
import type { ContentRepository, StoredRow } from '../db/repositories/content-repository.js';
import type { ContentType } from './content-type.js';
import type { ContentWrites, WriteLog } from './content-writes.js';
import type { RowInput } from './row-input.js';
import { assignSlugs, type LocalizedSlugs } from './slug-columns.js';

/** Candidates probed after a slug hint before reading every `base-N` instead. */
const MAX_SLUG_PROBES = 64;

/** Slug hints kept where the read cache keeps none (PostgreSQL), all tables together. */
const MAX_TOKEN_HINTS = 4096;

/**
 * Candidates after a token hint probed in one statement: creates of one base waiting on its lock
 * (up to the server's pool, 10) each read the hint before the one ahead committed.
 */
const PROBES_AT_ONCE = 16;

/** How far a base's taken run reached, learnt at a gap token (see `SlugPicker.freeSlug`). */
interface TokenHint {
  highest: number;
  gapToken: string;
}

/**
 * The slugs of a row write (RowService): the shared rules of slug-columns.ts, asked of the write's
 * own transaction, with the read cache's hints of how far a base's taken run reaches.
 */
export class SlugPicker {
  /**
   * Hints where the read cache keeps none (PostgreSQL, whose servers share the rows), by content
   * type, column and base: each holds while the table's gap token, which every update and delete
   * of its rows raises in its own transaction, is the one it was learnt at.
   */
  private readonly tokenHints = new Map<string, TokenHint>();

  constructor(private readonly writes: ContentWrites) {}

  /**
   * Slug columns filled in by the shared rules, with this write's view of taken slugs. `write` is a
   * create's log; `firstTry` says it is the create's first run (see `tokenFreeSlug`). `locales`:
   * the write's values in locales other than the default, whose localized slugs are filled in too.
   */
  assign(
    repository: ContentRepository,
    type: ContentType,
    input: RowInput,
    current: StoredRow | null,
    id: string,
    lockSlugs: (column: string, base: string) => Promise<void>,
    write?: WriteLog,
    firstTry = false,
    locales?: LocalizedSlugs,
  ): Promise<Map<string, ColumnValue>> {
    return assignSlugs(
      type,
      input,
      current,
      {
        isTaken: (column, slug) => repository.isTaken(type.table, column, slug, id),
        firstFree: async (column, base) => {
          // Writers running in parallel (PostgreSQL) choosing a slug from the same base take turns, each
          // seeing the last one's row, rather than all choosing the same slug and all but one failing.
          // Other bases go on in parallel: the rare base whose numbered slug another base can also
          // give ("news" → "news-2", "News 2") loses a unique-index race and runs again (see `RowService.write`).
          await lockSlugs(column, base);
          return this.freeSlug(repository, type, column, base, id, write, firstTry);
        },
      },
      locales,
    );
  }

  /**
   * The first free slug for `base` (`base`, `base-2`, `base-3`...). A create remembers how far the
   * taken run reaches, so the next create with the same base probes one candidate instead of
   * reading every `base-N` (a thousand "Untitled" rows would otherwise make each create slower).
   * Hints are only used and kept while no row has been deleted or renamed since: on SQLite the read
   * cache knows (every write of the file goes through it, or empties it), elsewhere the table's gap
   * token, read in the same statement as the slugs, tells (`tokenFreeSlug`).
   */
  private async freeSlug(
    repository: ContentRepository,
    type: ContentType,
    column: string,
    base: string,
    id: string,
    write: WriteLog | undefined,
    firstTry: boolean,
  ): Promise<string> {
    // Hints serve creates only: an update's own slug is not "taken" for itself.
    if (write && repository.keepsGapTokens) {
      return this.tokenFreeSlug(repository, type, column, base, id, write, firstTry);
    }
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
      const { values } = await repository.valuesStartingWith(type.table, column, base, id);
      n = firstFree(base, values);
    }
    const slug = slugWithSuffix(base, n);
    if (cache && write?.gapToken !== undefined) {
      const gapToken = write.gapToken;
      write.whenKept.push(() => cache.rememberSlug(type, column, base, n, gapToken));
    }
    return slug;
  }

  /**
   * `freeSlug` for a create where the engine keeps gap tokens (`keepsGapTokens`): the candidates
   * after the hint learnt for this base, probed in one statement with the table's gap token, when
   * the token is still the one the hint was learnt at (a row updated or deleted since may have freed
   * a slug below it); else every `base-N`, read with the token, which the committed create then
   * remembers with what it took.
   *
   * A base without a hint is, most often, a title nobody has used: on the create's first try it is
   * taken without a read, so the create waits for nothing before its COMMIT (one round trip on
   * PostgreSQL); where a row has it, the unique index refuses it there and the write runs again
   * (`RowService.write`), reading the run this time.
   */
  private async tokenFreeSlug(
    repository: ContentRepository,
    type: ContentType,
    column: string,
    base: string,
    id: string,
    write: WriteLog,
    firstTry: boolean,
  ): Promise<string> {
    const key = `${type.table}\u0000${column}\u0000${base}`;
    const hint = this.tokenHints.get(key);
    let n: number | undefined;
    let gapToken: string | null = null;
    if (hint) {
      const from = hint.highest + 1;
      const candidates = Array.from({ length: PROBES_AT_ONCE }, (_, i) => slugWithSuffix(base, from + i));
      const probe = await repository.probeSlugs(type.table, column, candidates, id);
      if (probe.gapToken === hint.gapToken && probe.free !== null) {
        n = from + probe.free;
        gapToken = probe.gapToken;
      }
    }
    if (n === undefined) {
      if (!hint && firstTry) return base;
      const run = await repository.valuesStartingWith(type.table, column, base, id, true);
      n = firstFree(base, run.values);
      gapToken = run.gapToken;
    }
    if (gapToken !== null) {
      const learnt = { highest: n, gapToken };
      write.whenKept.push(() => this.rememberToken(key, learnt));
    }
    return slugWithSuffix(base, n);
  }

  /**
   * Keeps a hint a committed create learnt. Concurrent creates may report out of order: one learnt
   * at an older token than the one it replaces costs the next create a read of the run, no more (its
   * probe finds the token moved).
   */
  private rememberToken(key: string, learnt: TokenHint): void {
    const known = this.tokenHints.get(key);
    if (known && known.gapToken === learnt.gapToken && known.highest >= learnt.highest) return;
    this.tokenHints.delete(key);
    if (this.tokenHints.size >= MAX_TOKEN_HINTS) this.tokenHints.delete(this.tokenHints.keys().next().value as string);
    this.tokenHints.set(key, learnt);
  }
}

/** Which `n` `uniqueSlug` gives `base` when `taken` holds the values starting with it. */
function firstFree(base: string, taken: ReadonlySet<string>): number {
  const slug = uniqueSlug(base, (candidate) => taken.has(candidate));
  return slug === base ? 1 : Number(slug.slice(slug.lastIndexOf('-') + 1));
}
