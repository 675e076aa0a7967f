import { describe, expect, it } from 'vitest';
import { PhaseTimer } from './phase-timer.js';

describe('PhaseTimer', () => {
  it('gives every phase of its result in the Server-Timing header, in the result order', () => {
    const timer = new PhaseTimer();
    timer.lap('init');
    timer.lap('data');
    const timing = timer.result();
    // The header names each of the result's members once, in its order, with its value.
    const expected = Object.entries(timing)
      .map(([name, ms]) => `${name};dur=${ms}`)
      .join(', ');
    expect(PhaseTimer.header(timing)).toBe(expected);
    expect(PhaseTimer.header({ total: 1.5, init: 0.001, filter: 0, data: 0.25, count: 0, format: 0.1 })).toBe(
      'total;dur=1.5, init;dur=0.001, filter;dur=0, data;dur=0.25, count;dur=0, format;dur=0.1',
    );
  });

  it('charges each lap to its phase and rounds to the microsecond', () => {
    const timer = new PhaseTimer();
    timer.lap('init');
    timer.lap('count');
    const timing = timer.result();
    for (const ms of Object.values(timing)) expect(Math.round(ms * 1000) / 1000).toBe(ms);
    expect(timing.total).toBeGreaterThanOrEqual(timing.init + timing.count - 0.002);
    expect(timing.filter).toBe(0);
  });
});
