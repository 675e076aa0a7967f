import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEngineMarker, serverTestFiles, sortByEngine, usesTestEngine } from './test-engines.js';

const lines = (...text: string[]) => text.join('\n');
const SERVER_IMPORT = "import { startTestServer } from '../test-support/test-server.js';";

describe('readEngineMarker', () => {
  it('reads the engine and the reason, which may go on over the next comment lines', () => {
    expect(
      readEngineMarker(
        lines(
          '// Engine: SQLite only: it edits the SQLite file outside the API,',
          '// then restarts on it.',
          '',
          SERVER_IMPORT,
        ),
      ),
    ).toEqual({
      kind: 'bound',
      engine: 'sqlite',
      reason: 'it edits the SQLite file outside the API, then restarts on it.',
    });
    expect(readEngineMarker(lines('// Engine: PostgreSQL only: it cuts its own database off.', SERVER_IMPORT))).toEqual(
      { kind: 'bound', engine: 'postgres', reason: 'it cuts its own database off.' },
    );
    expect(readEngineMarker('// Engine: both in one run: it copies a SQLite site to PostgreSQL.\n')).toMatchObject({
      kind: 'bound',
      engine: 'both',
    });
  });

  it('finds none in a file without one, or with the words only inside code', () => {
    expect(readEngineMarker(lines(SERVER_IMPORT, "const text = '// Engine: SQLite only: x';"))).toEqual({
      kind: 'none',
    });
  });

  it('refuses a marker without a reason', () => {
    for (const marker of ['// Engine: SQLite only:', '// Engine: SQLite only: ', '// Engine: SQLite only: file']) {
      expect(readEngineMarker(lines(marker, SERVER_IMPORT)), marker).toMatchObject({
        kind: 'malformed',
        line: 1,
        problem: expect.stringContaining('say why'),
      });
    }
  });

  it('refuses a marker of another form, naming the forms it takes', () => {
    for (const marker of [
      '// Engine: SQLite: it edits the SQLite file outside the API.',
      '// engine: sqlite only: it edits the SQLite file outside the API.',
      '// Engines: PostgreSQL only: it cuts its own database off.',
      '//Engine: SQLite only: it edits the SQLite file outside the API.',
      '// Engine: MySQL only: it edits the MySQL tables outside the API.',
    ]) {
      const read = readEngineMarker(lines(marker, SERVER_IMPORT));
      expect(read, marker).toMatchObject({ kind: 'malformed', line: 1 });
      expect(read.kind === 'malformed' && read.problem, marker).toContain('// Engine: SQLite only: REASON');
    }
  });

  it('refuses a marker below the code, and a second marker', () => {
    expect(
      readEngineMarker(lines(SERVER_IMPORT, '', '// Engine: SQLite only: it edits the SQLite file outside the API.')),
    ).toMatchObject({ kind: 'malformed', line: 3, problem: expect.stringContaining('at the top') });
    expect(
      readEngineMarker(
        lines(
          '// Engine: SQLite only: it edits the SQLite file outside the API.',
          '',
          '// Engine: PostgreSQL only: it cuts its own database off.',
        ),
      ),
    ).toMatchObject({ kind: 'malformed', line: 3, problem: expect.stringContaining('second') });
  });
});

describe('usesTestEngine', () => {
  const uses = (path: string, ...source: string[]) => usesTestEngine({ path, source: lines(...source) });

  it('sees a value imported from the test server, the API scenarios or the test database', () => {
    expect(uses('server/http/a-api.test.ts', SERVER_IMPORT)).toBe(true);
    expect(uses('server/http/a-api.test.ts', "import { request } from '../test-support/api-scenario.js';")).toBe(true);
    expect(uses('server/db/a.test.ts', "import { openTestDatabase } from '../test-support/test-database.js';")).toBe(
      true,
    );
    expect(uses('bench/a.test.ts', "import { startTestServer } from '../server/test-support/test-server.js';")).toBe(
      true,
    );
    expect(uses('server/test-support/a.test.ts', "import {\n  startTestServer,\n} from './test-server.js';")).toBe(
      true,
    );
  });

  it('does not count types, other modules, or a module of the same name elsewhere', () => {
    expect(uses('server/http/a.test.ts', "import type { TestServer } from '../test-support/test-server.js';")).toBe(
      false,
    );
    expect(uses('server/http/a.test.ts', "import { type TestServer } from '../test-support/test-server.js';")).toBe(
      false,
    );
    expect(uses('server/http/a.test.ts', "import { rawRequest } from '../test-support/hostile-http.js';")).toBe(false);
    expect(uses('server/http/a.test.ts', "import { startTestServer } from './test-server.js';")).toBe(false);
  });
});

describe('sortByEngine', () => {
  it('runs on PostgreSQL too every suite that uses a test engine and is not bound to one', () => {
    const suites = sortByEngine([
      { path: 'server/http/b-api.test.ts', source: SERVER_IMPORT },
      { path: 'server/http/a-api.test.ts', source: SERVER_IMPORT },
      { path: 'server/http/unit.test.ts', source: "import { x } from './x.js';" },
      {
        path: 'server/http/sqlite-api.test.ts',
        source: lines('// Engine: SQLite only: it edits the SQLite file outside the API.', SERVER_IMPORT),
      },
      { path: 'server/http/bad-api.test.ts', source: lines('// Engine: SQLite only', SERVER_IMPORT) },
    ]);
    expect(suites.postgres).toEqual([
      'server/http/a-api.test.ts',
      'server/http/b-api.test.ts',
      'server/http/bad-api.test.ts',
    ]);
    expect(suites.malformed).toEqual([
      { path: 'server/http/bad-api.test.ts', line: 1, problem: expect.stringContaining('REASON') },
    ]);
  });
});

describe("this repository's test files", () => {
  const files = serverTestFiles(join(import.meta.dirname, '..', '..'));

  it('are found where the server project looks', () => {
    expect(files.map((file) => file.path)).toContain('server/test-support/test-engines.test.ts');
    expect(files.map((file) => file.path)).not.toContain('server/durability/load.stress.test.ts');
  });

  it('carry no malformed engine marker', () => {
    expect(sortByEngine(files).malformed).toEqual([]);
  });
});
