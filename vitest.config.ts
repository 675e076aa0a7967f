import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresForTests } from './server/test-support/postgres.js';
import { SERVER_TEST_FOLDERS, serverTestFiles, sortByEngine } from './server/test-support/test-engines.js';

/**
 * The migrated database of each engine a run makes once, which test servers start from as copies
 * instead of migrating a database each (server/test-support/database-templates-setup.ts).
 */
const DATABASE_TEMPLATES = 'server/test-support/database-templates-setup.ts';

/**
 * The suites that also run on PostgreSQL (`server-pg`): every one that starts a test server or
 * opens a test database through test-support, unless its own file binds it to an engine with a
 * `// Engine: ...` line and the reason (server/test-support/test-engines.ts). Their test servers
 * get a throwaway database of their own (QUIRE_TEST_ENGINE=postgres, see test-server.ts).
 */
const POSTGRES_API_SUITES = sortByEngine(serverTestFiles(fileURLToPath(new URL('.', import.meta.url)))).postgres;

/**
 * Why this machine has no PostgreSQL for the tests (a newcomer's laptop), or null where it has one.
 * On CI (CI=true) it is always there: null, so a missing server fails the suites that use it.
 */
async function postgresSkipReason(): Promise<string | null> {
  try {
    return (await postgresForTests()).skipReason;
  } catch {
    return null; // CI without PostgreSQL: run, and let every suite say it is missing
  }
}

/** Asked once for every project that uses PostgreSQL. */
const POSTGRES_SKIP_REASON = postgresSkipReason();

/** The `server-pg` project, or none where there is no PostgreSQL to run it on (one line says why). */
async function postgresProjects(): Promise<TestProjectInlineConfiguration[]> {
  const skipReason = await POSTGRES_SKIP_REASON;
  if (skipReason) {
    console.warn(`server-pg: skipped (${skipReason})`);
    return [];
  }
  return [
    {
      test: {
        name: 'server-pg',
        include: POSTGRES_API_SUITES,
        environment: 'node',
        env: { QUIRE_TEST_ENGINE: 'postgres' },
        globalSetup: [DATABASE_TEMPLATES],
        testTimeout: 20_000,
        hookTimeout: 30_000,
      },
    },
  ];
}

/**
 * The `site-builds` project's engine for its running Quire: PostgreSQL where there is one (its
 * export is made from a SQLite copy of the site, so each engine serves the builds once), else
 * SQLite, one line saying why.
 */
async function siteBuildsEnv(): Promise<Record<string, string>> {
  const skipReason = await POSTGRES_SKIP_REASON;
  if (!skipReason) return { QUIRE_TEST_ENGINE: 'postgres' };
  console.warn(`site-builds: the running Quire on SQLite, not PostgreSQL (${skipReason})`);
  return {};
}

/**
 * One runner for every suite. Unit and API tests run in parallel files; each API test starts its
 * own server on a free 127.0.0.1 port over a temporary database (`server-pg`: the API suites
 * again, each server on a throwaway PostgreSQL database).
 */
export default defineConfig(async () => ({
  test: {
    projects: [
      {
        test: {
          name: 'server',
          include: SERVER_TEST_FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
          // The long crash and load runs: `npm run test:stress` (vitest.stress.config.ts).
          exclude: [...configDefaults.exclude, '**/*.stress.test.ts'],
          environment: 'node',
          globalSetup: [DATABASE_TEMPLATES],
          testTimeout: 20_000,
        },
      },
      ...(await postgresProjects()),
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
        test: {
          // The examples/ sites built with their real CLIs (Astro, Eleventy) against a running
          // Quire and from a `quire export` folder: no browser, but whole builds, so long timeouts.
          name: 'site-builds',
          include: ['e2e/site-builds.test.ts'],
          environment: 'node',
          env: await siteBuildsEnv(),
          testTimeout: 240_000,
          hookTimeout: 60_000,
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
          // jsdom pages that type and wait share the cores with every other project.
          testTimeout: 20_000,
        },
      },
      {
        // The editor in real Chromium against a real server; one file at a time (one browser each).
        test: {
          name: 'e2e',
          include: ['e2e/editor*.test.ts'],
          // Whole corpora in a browser: `npm run test:stress` (vitest.stress.config.ts).
          exclude: [...configDefaults.exclude, '**/*.stress.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts', DATABASE_TEMPLATES],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
}));
