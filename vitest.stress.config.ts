import { defineConfig } from 'vitest/config';

/**
 * `npm run test:stress`: the slow durability runs kept out of `npm test` — the SIGKILL crash test
 * and the 64-client, 30-second load test against a real server process on 127.0.0.1. One file at a
 * time, so the runs do not compete for the CPU with each other.
 */
export default defineConfig({
  test: {
    name: 'stress',
    include: ['server/**/*.stress.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
