import type { Timing } from '../../common/api-contract.js';

type Phase = Exclude<keyof Timing, 'total'>;

/** Measures the phases of a read (init, filter, data, count, format) in milliseconds. */
export class PhaseTimer {
  private readonly start = performance.now();
  private last = this.start;
  private readonly phases: Timing = { total: 0, init: 0, filter: 0, data: 0, count: 0, format: 0 };

  /** Ends the phase that was running, charging the time since the previous lap to it. */
  lap(phase: Phase): void {
    const now = performance.now();
    this.phases[phase] += now - this.last;
    this.last = now;
  }

  /** The timing object, milliseconds rounded to microseconds. */
  result(): Timing {
    this.phases.total = performance.now() - this.start;
    const round = (ms: number) => Math.round(ms * 1000) / 1000;
    const { total, init, filter, data, count, format } = this.phases;
    return {
      total: round(total),
      init: round(init),
      filter: round(filter),
      data: round(data),
      count: round(count),
      format: round(format),
    };
  }

  /**
   * The same figures as a `Server-Timing` header value, in `Timing`'s order. Written out rather
   * than mapped over `Object.entries`: every get and list builds it, and the mapped form shows in
   * profiles of distinct gets.
   */
  static header(timing: Timing): string {
    return `total;dur=${timing.total}, init;dur=${timing.init}, filter;dur=${timing.filter}, data;dur=${timing.data}, count;dur=${timing.count}, format;dur=${timing.format}`;
  }
}
