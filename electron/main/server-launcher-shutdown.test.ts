import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withRecursiveView } from '../../server/test-support/hostile-databases.js';
import type { ParentMessage, ServerChildOptions } from '../server-child/server-child-protocol.js';
import { launchServerChild, type UtilityChild } from './server-launcher.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** Electron's `process.parentPort` over Node's IPC channel, as the desktop stand-in gives it. */
const shim = new URL('../../e2e/support/electron-stand-in/parent-port-shim.mjs', import.meta.url).href;

/** The real server child entry in a real process (Node with tsx instead of an Electron utilityProcess). */
class ForkedServerChild extends EventEmitter implements UtilityChild {
  readonly process: ChildProcess;
  constructor() {
    super();
    this.process = fork(join(root, 'electron', 'server-child', 'server-child-entry.ts'), [], {
      execArgv: ['--import', 'tsx', '--import', shim],
      stdio: 'ignore',
    });
    this.process.on('message', (message) => this.emit('message', message));
    this.process.on('exit', (code, signal) => this.emit('exit', code ?? (signal ? 1 : 0)));
  }
  postMessage(message: ParentMessage): void {
    if (this.process.connected) this.process.send(message);
  }
  kill(): boolean {
    return this.process.kill();
  }
}

/**
 * The desktop app's server runs in its own process and the main process, which runs no queries,
 * stops it: a server child blocked in a query is killed after the stop timeout. (The main process
 * itself stops the child on SIGTERM through app.quit; see app-lifecycle.ts.)
 */
describe('stopping a desktop server child that a query blocks', () => {
  let dir: string;
  let child: ForkedServerChild | null = null;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-launch-blocked-'));
  });
  afterEach(() => {
    child?.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('kills it within the stop timeout', async () => {
    const options: ServerChildOptions = {
      dbFile: await withRecursiveView(join(dir, 'content.sqlite')),
      port: 0,
      host: '127.0.0.1',
      editorName: 'ana',
      editorDir: null,
    };
    const stopTimeoutMs = 2_000;
    const server = await launchServerChild(
      () => {
        child = new ForkedServerChild();
        return child;
      },
      options,
      { stopTimeoutMs },
    );
    void fetch(`${server.origin}/api/cms/categories`).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const probe = await fetch(`${server.origin}/api/cms/news`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.status,
      (error: Error) => error.name,
    );
    expect(probe).toBe('TimeoutError');

    const start = Date.now();
    await server.stop();
    expect(Date.now() - start).toBeLessThan(stopTimeoutMs + 1_500);
    const forked = (child as ForkedServerChild | null)?.process;
    expect(forked?.exitCode !== null || forked?.signalCode !== null).toBe(true);
  });
});
