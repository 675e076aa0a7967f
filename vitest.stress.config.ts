import { defineConfig } from 'vitest/config';

/**
 * `npm run test:stress`: the slow runs kept out of `npm test` — the SIGKILL crash test, the
 * 64-client, 30-second load test and the API fuzzer's 5,000 requests on each engine against a real
 * server process on 127.0.0.1, and the browser tests over whole corpora, every language and both
 * themes (`npm test` runs a representative part of each). One file at a time, so the runs do not
 * compete for the CPU with each other.
 */
export default defineConfig({
  test: {
    maxWorkers: 1,
    projects: [
      {
        test: {
          name: 'stress',
          include: ['server/**/*.stress.test.ts'],
          environment: 'node',
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The editor in real Chromium against a real server, as the `e2e` project runs it.
        test: {
          name: 'stress-e2e',
          include: ['e2e/**/*.stress.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
