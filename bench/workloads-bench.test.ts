import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs benchmark modules without type declarations
import { cpuPerRequest, cpuText } from './workloads-bench.mjs';

/** What the bench makes of a run's CPU time (bench/workloads-bench.mjs). */
describe('cpuPerRequest', () => {
  it('divides each group’s and the load generator’s milliseconds among the completed requests, in µs', () => {
    const used = { groups: { server: 250, database: 100.4 }, load: 50, busyCores: 1.876, cores: 2 };
    expect(cpuPerRequest(used, 1000)).toEqual({ server: 250, database: 100, load: 50, busyCores: 1.88, cores: 2 });
  });

  it('gives no per-request figure when no request completed', () => {
    const used = { groups: { server: 250 }, load: 50, busyCores: 0.5, cores: 2 };
    expect(cpuPerRequest(used, 0)).toEqual({ server: null, load: null, busyCores: 0.5, cores: 2 });
  });
});

describe('cpuText', () => {
  it('names PostgreSQL only when its time was counted, and nothing without CPU figures', () => {
    const server = { server: 80, load: 30, busyCores: 1.5, cores: 2 };
    expect(cpuText(server)).toBe('; CPU a request: server 80 µs, load generator 30 µs; machine 1.5 of 2 cores busy');
    expect(cpuText({ ...server, database: 40 })).toBe(
      '; CPU a request: server 80 µs, PostgreSQL 40 µs, load generator 30 µs; machine 1.5 of 2 cores busy',
    );
    expect(cpuText(undefined)).toBe('');
  });
});
