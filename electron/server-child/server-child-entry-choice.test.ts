import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { datedFiles } from '../../server/test-support/dated-files.js';
import { serverChildEntry } from './server-child-entry-choice.js';

describe('the script the desktop server child runs', () => {
  let dir: string | null = null;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = null;
  });

  /** A built dist/electron folder: server-child/ with tsc's modules, maybe bundle/server-child.cjs, with mtimes. */
  function built(files: Record<string, number>): string {
    dir = datedFiles('quire-child-entry-', { 'server-child/server-child-entry-choice.js': 1, ...files });
    return pathToFileURL(join(dir, 'server-child', 'server-child-entry-choice.js')).href;
  }

  it('is the module running the bundle when the build wrote one after the compiled modules', () => {
    const here = built({ 'server-child/server-child.js': 100, 'bundle/server-child.cjs': 101 });
    expect(serverChildEntry(here)).toBe(join(dir as string, 'server-child', 'server-child-bundle-main.js'));
  });

  it('is the compiled entry without a bundle, or with one older than tsc output', () => {
    expect(serverChildEntry(built({ 'server-child/server-child.js': 100 }))).toBe(
      join(dir as string, 'server-child', 'server-child-entry.js'),
    );
    rmSync(dir as string, { recursive: true, force: true });
    const stale = built({ 'server-child/server-child.js': 200, 'bundle/server-child.cjs': 100 });
    expect(serverChildEntry(stale)).toBe(join(dir as string, 'server-child', 'server-child-entry.js'));
  });
});
