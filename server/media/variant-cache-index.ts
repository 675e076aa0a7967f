/** What the variant cache prunes down to once it is over its cap: room for new variants before the next pruning. */
export const PRUNE_TO = 0.9;

/**
 * The variant cache's files by last use, and the rule that keeps their total under a size cap:
 * once the total is over the cap, the least recently used files go until it is at most
 * PRUNE_TO of the cap. The most recent file always stays (it is being served), even alone over
 * the cap. Pure bookkeeping: the caller deletes the files `overflow` names.
 */
export class VariantCacheIndex {
  /** Bytes of each file, least recently used first (a Map keeps insertion order). */
  private readonly files = new Map<string, number>();
  /** Bytes of all the files known. */
  total = 0;

  constructor(readonly capBytes: number) {}

  /** How many files are known. */
  get size(): number {
    return this.files.size;
  }

  /** Records a use of `file` (made, found on disk or served): it becomes the most recently used. */
  use(file: string, bytes: number): void {
    this.forget(file);
    this.files.set(file, bytes);
    this.total += bytes;
  }

  /** Whether `file` is known; a use without its size when it is (a cache hit). */
  touch(file: string): boolean {
    const bytes = this.files.get(file);
    if (bytes === undefined) return false;
    this.use(file, bytes);
    return true;
  }

  /** Forgets `file` (deleted); whether it was known. */
  forget(file: string): boolean {
    const bytes = this.files.get(file);
    if (bytes === undefined) return false;
    this.files.delete(file);
    this.total -= bytes;
    return true;
  }

  /** Forgets the files `matches` picks, and names them (the variants of a replaced or deleted original). */
  forgetWhere(matches: (file: string) => boolean): string[] {
    const gone = [...this.files.keys()].filter(matches);
    for (const file of gone) this.forget(file);
    return gone;
  }

  /**
   * The files to delete now, least recently used first, forgotten here: none while the total is
   * within the cap, else enough to bring it to PRUNE_TO of the cap (the most recent file kept).
   */
  overflow(): string[] {
    if (this.total <= this.capBytes) return [];
    const target = this.capBytes * PRUNE_TO;
    const chosen: string[] = [];
    for (const [file, bytes] of this.files) {
      if (this.total <= target || this.files.size === 1) break;
      chosen.push(file);
      this.files.delete(file);
      this.total -= bytes;
    }
    return chosen;
  }
}
