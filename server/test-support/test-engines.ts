import { readdirSync, readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';

/**
 * Which engines a test file runs on. A suite that starts a test server or opens a test database
 * through test-support (`test-server.ts`, `api-scenario.ts`, `test-database.ts`) runs once per
 * engine: in `server` on SQLite and in `server-pg` on a throwaway PostgreSQL database. A suite that
 * is bound to one engine says so, with the reason, in a comment line among the ones at the top:
 *
 *   // Engine: SQLite only: it edits the SQLite file outside the API, then restarts on it.
 *   // Engine: PostgreSQL only: it cuts the connection to a PostgreSQL database of its own.
 *   // Engine: both in one run: it copies a SQLite site to a PostgreSQL database of its own.
 *
 * The reason may go on over the next `//` lines. A marked suite runs in `server` only: the
 * PostgreSQL databases it needs it makes itself (skipped, saying why, where there is no server).
 */

/** What a marker binds a suite to: one engine, or both opened by the suite itself. */
export type MarkedEngine = 'sqlite' | 'postgres' | 'both';

/** What a test file's comments say about its engines. */
export type EngineMarker =
  | { kind: 'none' }
  | { kind: 'bound'; engine: MarkedEngine; reason: string }
  | { kind: 'malformed'; line: number; problem: string };

/** The modules whose suites run on both engines: they start test servers or open test databases. */
export const ENGINE_SUPPORT_MODULES = ['test-server', 'api-scenario', 'test-database'] as const;

/** Fewer characters than this do not say why. */
const SHORTEST_REASON = 12;

const MARKER_ATTEMPT = /^\s*\/\/\s*engines?\s*:/i;
const MARKER = /^\/\/ Engine: (SQLite only|PostgreSQL only|both in one run):\s*(.*)$/;
const ENGINE_NAMES: Record<string, MarkedEngine> = {
  'SQLite only': 'sqlite',
  'PostgreSQL only': 'postgres',
  'both in one run': 'both',
};

/** Reads the engine marker of a test file's source: none, the engine and reason, or what is wrong with it. */
export function readEngineMarker(source: string): EngineMarker {
  const lines = source.split(/\r?\n/);
  const attempts = lines.flatMap((line, index) => (MARKER_ATTEMPT.test(line) ? [index] : []));
  if (attempts.length === 0) return { kind: 'none' };
  const [first] = attempts;
  const at = first + 1;
  if (attempts.length > 1) {
    return { kind: 'malformed', line: attempts[1] + 1, problem: `a second engine marker (the first is on line ${at})` };
  }
  const headerEnd = lines.findIndex((line) => !/^\s*(\/\/.*)?$/.test(line));
  if (headerEnd !== -1 && first > headerEnd) {
    return { kind: 'malformed', line: at, problem: 'the engine marker must be among the comment lines at the top' };
  }
  const match = MARKER.exec(lines[first].trim());
  if (!match) {
    return {
      kind: 'malformed',
      line: at,
      problem:
        'write `// Engine: SQLite only: REASON`, `// Engine: PostgreSQL only: REASON` or `// Engine: both in one run: REASON`',
    };
  }
  const reasonLines = [match[2]];
  for (let index = first + 1; index < lines.length; index++) {
    const more = /^\s*\/\/ ?(.*)$/.exec(lines[index]);
    if (!more || more[1].trim() === '') break;
    reasonLines.push(more[1]);
  }
  const reason = reasonLines.join(' ').replace(/\s+/g, ' ').trim();
  if (reason.length < SHORTEST_REASON) {
    return {
      kind: 'malformed',
      line: at,
      problem: 'the engine marker must say why (a reason of a few words at least)',
    };
  }
  return { kind: 'bound', engine: ENGINE_NAMES[match[1]], reason };
}

/**
 * Whether a test file starts a test server or opens a test database through test-support: it
 * imports a value (not only types) from one of `ENGINE_SUPPORT_MODULES`.
 */
export function usesTestEngine({ path, source }: TestFile): boolean {
  const supportModules = ENGINE_SUPPORT_MODULES.map((name) => `server/test-support/${name}.js`);
  for (const [, typeOnly, names, from] of source.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)'/gm)) {
    if (typeOnly || !from.startsWith('.')) continue;
    if (!supportModules.includes(posix.join(posix.dirname(path), from))) continue;
    const braced = /^\{([\s\S]*)\}$/.exec(names.trim());
    if (!braced) return true;
    const values = braced[1].split(',').filter((name) => name.trim() !== '' && !/^type\s/.test(name.trim()));
    if (values.length > 0) return true;
  }
  return false;
}

/** One test file: its path from the repository root (with `/`) and its source. */
export interface TestFile {
  path: string;
  source: string;
}

/** The test files that run in `server-pg`, and the ones whose engine marker is malformed. */
export interface EngineSuites {
  postgres: string[];
  malformed: { path: string; line: number; problem: string }[];
}

/**
 * Sorts test files by engine: those that use a test engine and carry no marker run on PostgreSQL
 * too. A malformed marker is reported and does not keep its suite from either engine.
 */
export function sortByEngine(files: TestFile[]): EngineSuites {
  const suites: EngineSuites = { postgres: [], malformed: [] };
  for (const { path, source } of files) {
    const marker = readEngineMarker(source);
    if (marker.kind === 'malformed') suites.malformed.push({ path, line: marker.line, problem: marker.problem });
    if (marker.kind !== 'bound' && usesTestEngine({ path, source })) suites.postgres.push(path);
  }
  suites.postgres.sort();
  return suites;
}

/** The folders whose `*.test.ts` files the `server` project runs (vitest.config.ts). */
export const SERVER_TEST_FOLDERS = ['common', 'server', 'scripts', 'bench'];

/** The `server` project's test files under `root` (the slow `*.stress.test.ts` runs left out), with their sources. */
export function serverTestFiles(root: string, folders: string[] = SERVER_TEST_FOLDERS): TestFile[] {
  const files: TestFile[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.test.ts') && !entry.name.endsWith('.stress.test.ts')) {
        files.push({ path: relative(root, full).split(sep).join('/'), source: readFileSync(full, 'utf8') });
      }
    }
  };
  for (const folder of folders) walk(join(root, folder));
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
