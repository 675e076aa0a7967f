import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../..', import.meta.url));

/** Loads `module` in a fresh Node process (through tsx) and says what that loaded. */
function loadAlone(module: string): { undici: boolean; navigator: string; pool: string } {
  const code = `
    const loaded = await import(${JSON.stringify(module)});
    const pg = loaded.pgModule ?? loaded.default;
    console.log(JSON.stringify({
      undici: process.moduleLoadList.some((name) => name.includes('undici')),
      navigator: typeof globalThis.navigator,
      pool: typeof pg.Pool,
    }));`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: repo,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
}

describe('pg-loader', () => {
  it('loads node-postgres without loading fetch (undici), leaving the globals as they were', () => {
    const nodeNavigator = typeof (globalThis as { navigator?: unknown }).navigator;
    expect(loadAlone('./server/db/postgres/pg-loader.ts')).toEqual({
      undici: false,
      navigator: nodeNavigator,
      pool: 'function',
    });
  });

  it('is needed: pg loaded directly loads fetch on a Node without navigator', () => {
    const direct = loadAlone('pg');
    expect(direct.pool).toBe('function');
    // Node 21 and later have navigator: pg then never touches fetch, with or without the loader.
    expect(direct.undici).toBe(direct.navigator === 'undefined');
  });
});
