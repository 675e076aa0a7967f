/** How many counts are kept (a key is a table and one selection's SQL). */
const MAX_KEPT = 2000;

/**
 * Counts kept in memory with the change number they were read at (see engine.ts
 * `RowChangeCounter`): one is given back only while its table's number is unchanged, so it is as
 * exact as counting again. The oldest go first past MAX_KEPT.
 */
export class KeptCounts {
  private readonly kept = new Map<string, { number: string; count: number }>();

  /** The count kept under `key` at change number `number`, if any. */
  get(key: string, number: string): number | undefined {
    const entry = this.kept.get(key);
    return entry?.number === number ? entry.count : undefined;
  }

  /** Keeps `count` under `key`, read at change number `number`. */
  set(key: string, number: string, count: number): void {
    this.kept.delete(key);
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(key, { number, count });
  }
}
