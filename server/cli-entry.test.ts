import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isServeCommand } from './cli.js';

const here = new URL('.', import.meta.url).pathname;

/** The modules a source file imports statically (`import ... from '...'`, `export ... from '...'`). */
function staticImports(file: string): string[] {
  const source = readFileSync(join(here, file), 'utf8');
  return [...source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)';/gms)].map((match) => match[1]);
}

describe('the quire entry point', () => {
  it('runs the server for serve, options alone or no arguments, as main does', () => {
    expect(isServeCommand([])).toBe(true);
    expect(isServeCommand(['serve'])).toBe(true);
    expect(isServeCommand(['serve', '--port', '0'])).toBe(true);
    expect(isServeCommand(['--db', 'x.sqlite'])).toBe(true);
    expect(isServeCommand(['backup', '--db', 'x.sqlite'])).toBe(false);
    expect(isServeCommand(['import', 'rows.ndjson'])).toBe(false);
    expect(isServeCommand(['help'])).toBe(false);
  });

  it('answers --help and --version without a server process, for serve too', () => {
    for (const flag of ['--help', '-h', '--version', '-v']) {
      expect(isServeCommand([flag]), flag).toBe(false);
      expect(isServeCommand(['serve', '--port', '0', flag]), flag).toBe(false);
    }
  });

  it("loads only Node's modules and the supervisor, which loads only Node's", () => {
    // The supervisor of `quire serve` runs this module alone: a server module imported here would
    // load the whole server (hundreds of modules) in the supervisor before the server's own start.
    expect(staticImports('cli.ts')).toEqual([
      'node:fs',
      'node:url',
      './process/server-entry.js',
      './process/server-supervisor.js',
    ]);
    for (const file of ['process/server-supervisor.ts', 'process/server-entry.ts']) {
      const imports = staticImports(file);
      expect(imports.length).toBeGreaterThan(0);
      for (const module of imports) expect(module, file).toMatch(/^node:/);
    }
  });
});

const built = join(here, '..', 'dist', 'server');

// The built entry, in a copy whose bundle and commands are stand-ins that say which ran: needs
// `node scripts/build.mjs` (npm test builds it first).
describe.skipIf(!existsSync(join(built, 'cli.js')))('the built quire command, for commands other than serve', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  /** The entry's own modules copied, the rest stand-ins dated as given (seconds); the copy's cli.js. */
  function copy(dated: Record<string, number>): string {
    dir = mkdtempSync(join(tmpdir(), 'quire-cli-entry-'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
    for (const file of ['cli.js', 'process/server-entry.js', 'process/server-supervisor.js']) {
      mkdirSync(dirname(join(dir, 'server', file)), { recursive: true });
      copyFileSync(join(built, file), join(dir, 'server', file));
    }
    const standIns: Record<string, string> = {
      'cli-commands.js': `export async function main(argv) { console.log('modules ran', argv.join(' ')); return 3; }`,
      'bundle/server.cjs': '',
      'process/server-bundle-main.js': `console.log('bundle ran', process.argv.slice(2).join(' ')); process.exitCode = 4;`,
    };
    for (const [file, seconds] of Object.entries(dated)) {
      const path = join(dir, 'server', file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, standIns[file]);
      utimesSync(path, seconds, seconds);
    }
    return join(dir, 'server', 'cli.js');
  }

  const quire = (cli: string, args: string[]) => {
    try {
      return { out: execFileSync(process.execPath, [cli, ...args], { encoding: 'utf8' }), code: 0 };
    } catch (error) {
      const failed = error as { stdout: string; status: number };
      return { out: failed.stdout, code: failed.status };
    }
  };

  it('runs them from the server bundle when the build made one, with their arguments and its exit code', () => {
    const cli = copy({ 'cli-commands.js': 100, 'bundle/server.cjs': 101, 'process/server-bundle-main.js': 101 });
    expect(quire(cli, ['export', '--out', 'site'])).toEqual({ out: 'bundle ran export --out site\n', code: 4 });
  });

  it('runs them from the compiled modules without a bundle, or with one older than them', () => {
    expect(quire(copy({ 'cli-commands.js': 100 }), ['types'])).toEqual({ out: 'modules ran types\n', code: 3 });
    rmSync(dir as string, { recursive: true, force: true });
    const stale = copy({ 'cli-commands.js': 200, 'bundle/server.cjs': 100, 'process/server-bundle-main.js': 100 });
    expect(quire(stale, ['types'])).toEqual({ out: 'modules ran types\n', code: 3 });
  });
});
