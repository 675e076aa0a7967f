import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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

  it("loads only Node's modules and the supervisor, which loads only Node's", () => {
    // The supervisor of `quire serve` runs this module alone: a server module imported here would
    // load the whole server (hundreds of modules) in the supervisor before the server's own start.
    expect(staticImports('cli.ts')).toEqual([
      'node:path',
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
