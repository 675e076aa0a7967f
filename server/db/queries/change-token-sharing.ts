/**
 * Lets the reads of requests that arrived together share one external change token (SQLite's
 * `pragma data_version`: a statement, two lock calls and a stat per read) instead of asking once per
 * request, without ever serving a request from a token older than its arrival.
 *
 * Why that keeps cross-process freshness: a client that saw another process's commit sends its
 * request after that commit, so the request arrives (reaches the server's listener) after it. A
 * token read after a request's arrival therefore reflects every commit that request may rely on.
 * Sharing is allowed only under that rule:
 * - every request counts itself on arrival (`requestArrived`), and a shared token read before the
 *   latest arrival is never reused (read again instead);
 * - requests are answered in batches (`shareBatch`), started only after all of a batch's requests
 *   arrived, so the first token read inside the batch is after every member's arrival;
 * - outside a running batch nothing is shared, so code that is not a request (tests and tools
 *   calling services directly, timers) reads the token every time.
 *
 * One instance belongs to one connection's read path (its statement runner), and the server's
 * request listener is given it to count arrivals and open batches.
 */
export class ChangeTokenSharing {
  private arrivals = 0;
  private batches = 0;
  private openBatches = 0;

  /** Counts a request on arrival, before anything reads for it (the server's listener calls it first). */
  requestArrived(): void {
    this.arrivals++;
  }

  /**
   * Runs one batch of reads for requests that have all arrived; they may share the token read first
   * while any of them is still running.
   */
  shareBatch(reads: () => readonly Promise<unknown>[]): void {
    this.batches++;
    this.openBatches++;
    let started: readonly Promise<unknown>[];
    try {
      started = reads();
    } catch (error) {
      this.openBatches--;
      throw error;
    }
    void Promise.allSettled(started).then(() => {
      this.openBatches--;
    });
  }

  /** `read` (the token), shared inside a batch as the rules above allow. */
  shared(read: () => number): () => number {
    let value = 0;
    let readAtArrival = -1;
    let readInBatch = -1;
    return () => {
      if (this.openBatches > 0 && readAtArrival === this.arrivals && readInBatch === this.batches) return value;
      value = read();
      readAtArrival = this.arrivals;
      readInBatch = this.openBatches > 0 ? this.batches : -1;
      return value;
    };
  }
}
