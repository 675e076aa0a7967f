import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * One runner for every suite. Unit and API tests run in parallel files; each API test starts its
 * own server on a free 127.0.0.1 port over a temporary database.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts'],
          // The long crash and load runs: `npm run test:stress` (vitest.stress.config.ts).
          exclude: [...configDefaults.exclude, '**/*.stress.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        test: {
          // The desktop shell: main-process logic and the server child without Electron, the
          // built main process under Node with a stand-in for Electron, the `npm start` launcher
          // and its fallback, and the Electron end-to-end test (skipped, saying why, where no
          // Electron binary or display is available).
          name: 'electron',
          include: [
            'electron/**/*.test.ts',
            'e2e/electron-app.test.ts',
            'e2e/desktop-main-stand-in.test.ts',
            'e2e/start-fallback.test.ts',
          ],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The editor's widgets, form logic and API client, in jsdom.
        plugins: [react()],
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['renderer/src/test-setup.ts'],
        },
      },
      {
        // The editor in real Chromium against a real server; one file at a time (one browser each).
        test: {
          name: 'e2e',
          include: ['e2e/editor*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
