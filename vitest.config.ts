import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { postgresForTests } from './server/test-support/postgres.js';

/**
 * The API suites that also run on PostgreSQL (`server-pg`): their test servers get a throwaway
 * database of their own (QUIRE_TEST_ENGINE=postgres, see test-server.ts). A suite is listed once
 * it passes there for real (suites that open a database themselves use test-database.ts's
 * openTestDatabase). The ones left out, and why:
 * - media/upload-aborts, media/media-prune: they check the media folder's `.incoming` files and
 *   its files' times; on PostgreSQL (`quire_media`) uploads-api runs here, postgres-media-api has
 *   two servers on one database and the unused count, and `quire media prune --database` is
 *   media-prune-postgres.test.ts (in `server`, on a throwaway database of its own).
 * - tampered-registry-api: edits a SQLite file outside the API, then restarts on it.
 * - db/ backup, restore and durability suites: they test the SQLite file itself; PostgreSQL's
 *   backup, restore and import are copy/postgres-backup.test.ts and import/import-postgres.test.ts.
 * - durability/ crash and load runs: the SQLite file under SIGKILL, backups taken during the load;
 *   PostgreSQL's are http/postgres-outage-drill (the database stopped under writes) and
 *   http/postgres-load-api (two servers under load), in `server` on databases of their own.
 * - content/exact-counts: SQLite's read cache against another connection's commits; PostgreSQL has
 *   no read cache (several servers share the database), and its counts through the API are
 *   checked here by list-api and api-fuzz, and by postgres-load-api.
 * - db/search-index, content-indexes, column-identifiers, migrations/: SQLite's search triggers and
 *   pending table, sqlite_master, tables made through the raw SQLite handle, files of earlier
 *   versions. PostgreSQL's search is compared with SQLite's row for row in http/postgres-search.
 */
const POSTGRES_API_SUITES = [
  'server/http/two-factor-api.test.ts',
  'server/accounts/two-factor-command.test.ts',
  'server/http/single-sign-on-api.test.ts',
  'server/http/list-filters-api.test.ts',
  'server/http/etag-api.test.ts',
  'server/http/rows-api.test.ts',
  'server/http/concurrent-slugs-api.test.ts',
  'server/http/list-api.test.ts',
  'server/http/list-paging-api.test.ts',
  'server/http/list-null-order-api.test.ts',
  'server/http/list-text-order-api.test.ts',
  'server/http/content-types-api.test.ts',
  'server/http/content-type-editing-api.test.ts',
  'server/http/slugs-and-meta-api.test.ts',
  'server/http/column-types-api.test.ts',
  'server/http/title-rule-api.test.ts',
  'server/http/content-type-round-trip-api.test.ts',
  'server/http/hostile-input-api.test.ts',
  'server/http/errors-api.test.ts',
  'server/http/select-options-api.test.ts',
  'server/http/json-in-fields-api.test.ts',
  'server/http/rich-fields-api.test.ts',
  'server/http/editor-headers.test.ts',
  'server/http/localhost-guards-api.test.ts',
  'server/http/persistence-api.test.ts',
  'server/http/api-fuzz.test.ts',
  'server/http/internal-names-api.test.ts',
  'server/http/cross-site-reads-api.test.ts',
  'server/http/uploads-api.test.ts',
  'server/test-support/test-server.test.ts',
  'server/http/accounts-api.test.ts',
  'server/accounts/account-command.test.ts',
  'server/http/accounts-hostile-api.test.ts',
  'server/http/accounts-races-api.test.ts',
  'server/http/request-target-api.test.ts',
  'server/http/sign-in-limits-api.test.ts',
  'server/http/fast-reads.test.ts',
  'server/http/fast-writes.test.ts',
  'bench/write-costs.test.ts',
  'server/content/content-writes.test.ts',
  'server/http/group-commit-api.test.ts',
  'server/openapi/openapi-api.test.ts',
  'server/export/export-command.test.ts',
  'server/types-gen/types-api.test.ts',
  'server/http/type-limited-views-api.test.ts',
  'server/http/revisions-api.test.ts',
  'server/http/revisions-access-api.test.ts',
  'server/http/schedules-api.test.ts',
  'server/http/hooks-api.test.ts',
  'server/hooks/hook-crash.test.ts',
  'server/http/hook-loops-api.test.ts',
  'server/http/publishing-access-api.test.ts',
  'server/http/hostile-new-endpoints-api.test.ts',
  'server/http/hostile-credentials-api.test.ts',
  'server/types-gen/hostile-types-api.test.ts',
  'server/http/starters-api.test.ts',
  'server/http/type-names-taken-api.test.ts',
  'server/audit/audit-service.test.ts',
  'server/http/audit-api.test.ts',
  'server/audit/audit-cli.test.ts',
  'server/http/audit-two-factor-api.test.ts',
];

/**
 * The `server-pg` project, or none where there is no PostgreSQL to run it on (a newcomer's laptop:
 * one line says why). On CI (CI=true) it is always there, so a missing server fails its suites.
 */
async function postgresProjects(): Promise<TestProjectInlineConfiguration[]> {
  let skipReason: string | null;
  try {
    skipReason = (await postgresForTests()).skipReason;
  } catch {
    skipReason = null; // CI without PostgreSQL: run, and let every suite say it is missing
  }
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
        testTimeout: 20_000,
        hookTimeout: 30_000,
      },
    },
  ];
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
          include: ['common/**/*.test.ts', 'server/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          // The long crash and load runs: `npm run test:stress` (vitest.stress.config.ts).
          exclude: [...configDefaults.exclude, '**/*.stress.test.ts'],
          environment: 'node',
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
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
}));
