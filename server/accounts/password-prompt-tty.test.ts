// Engine: SQLite only: the built command is pointed at the test server's SQLite file (--db); the suite tests the
// terminal, not the engine.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../config/package-root.js';
import { TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * `quire user add` on a real pseudo-terminal (util-linux `script` gives the built command one):
 * the password and its confirmation pasted in one chunk, as a terminal delivers a paste, are both
 * read, and neither is echoed. The terminal is raw before the command starts, so the paste reaches
 * it as one read whenever it lands (a terminal still in line mode would hand it over a line at a
 * time). Needs dist/ (node scripts/build.mjs) and /usr/bin/script.
 */

const cli = join(packageRoot(), 'dist', 'server', 'cli.js');

let server: TestServer | undefined;
let running: ChildProcess | undefined;
afterEach(async () => {
  running?.kill();
  running = undefined;
  await server?.dispose();
  server = undefined;
});

/** Runs the built `quire args` on a pseudo-terminal; `paste` is written in one chunk once `prompt` shows. */
function onTerminal(args: string[], prompt: string, paste: string): Promise<{ code: number | null; shown: string }> {
  const quoted = [process.execPath, cli, ...args].map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(' ');
  const command = `stty raw -echo && exec ${quoted}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] });
  running = child;
  let shown = '';
  let pasted = false;
  const take = (chunk: Buffer) => {
    shown += chunk.toString('utf8');
    if (!pasted && shown.includes(prompt)) {
      pasted = true;
      child.stdin.write(paste);
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, shown }));
  });
}

describe('quire user add on a terminal', () => {
  it('reads a password and its confirmation pasted in one chunk', async () => {
    expect(existsSync(cli), `${cli} is missing: run node scripts/build.mjs`).toBe(true);
    expect(existsSync('/usr/bin/script'), 'util-linux script gives the command its terminal').toBe(true);
    server = await startTestServer();
    const { code, shown } = await onTerminal(
      ['user', 'add', 'ada', '--role', 'admin', '--db', server.dbFile],
      'Password for ada: ',
      `${TEAM_PASSWORD}\r${TEAM_PASSWORD}\r`,
    );
    expect(shown).toContain('Again: ');
    expect(shown).toContain('Added ada (admin).');
    expect(shown).not.toContain('cancelled');
    expect(shown).not.toContain(TEAM_PASSWORD);
    expect(code).toBe(0);
  });
});
