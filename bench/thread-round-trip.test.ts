import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the bench, without types
import { measureRoundTrips } from './thread-round-trip.mjs';

describe('thread round trips (bench/thread-round-trip.mjs)', () => {
  it('measures a MessagePort and a shared-memory round trip to a worker', async () => {
    const results = await measureRoundTrips(200);
    for (const name of ['messagePort', 'sharedMemory']) {
      const { wallUs, cpuUs } = results[name];
      expect(wallUs, name).toBeGreaterThan(0);
      expect(cpuUs, name).toBeGreaterThan(0);
      expect(Number.isFinite(wallUs) && Number.isFinite(cpuUs), name).toBe(true);
    }
  });
});
