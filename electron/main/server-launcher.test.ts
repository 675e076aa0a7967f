import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerChildOptions } from '../server-child/server-child-protocol.js';
import { InProcessServerChild } from '../test-support/in-process-server-child.js';
import { launchServerChild, ServerStartError, type UtilityChild } from './server-launcher.js';

/** A child that never answers, to see the launcher give up and clean up. */
class SilentChild extends EventEmitter implements UtilityChild {
  killed = false;
  postMessage(): void {}
  kill(): boolean {
    this.killed = true;
    setImmediate(() => this.emit('exit', -1));
    return true;
  }
}

describe('launching the server child', () => {
  let dir: string;
  let options: ServerChildOptions;
  const children: InProcessServerChild[] = [];
  const fork = () => {
    const child = new InProcessServerChild();
    children.push(child);
    return child;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-launch-'));
    options = { dbFile: join(dir, 'content.sqlite'), port: 0, host: '127.0.0.1', editorName: 'ana', editorDir: null };
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('resolves with the address once the child is serving', async () => {
    const server = await launchServerChild(fork, options);
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.dbFile).toBe(options.dbFile);
    expect((await fetch(`${server.origin}/api/cms/news`)).status).toBe(200);
    await server.stop();
  });

  it('stops the child cleanly: stop, stopped, exit', async () => {
    const server = await launchServerChild(fork, options);
    await server.stop();
    const [child] = children;
    expect(child.sent.map((message) => message.type)).toEqual(['start', 'stop']);
    expect(child.received.map((message) => message.type)).toEqual(['ready', 'stopped']);
    expect(child.exited).not.toBeNull();
    await expect(fetch(`${server.origin}/api/cms/news`)).rejects.toThrow();
  });

  it('rejects with the one-line explanation and code when the port is taken', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    try {
      const error = await launchServerChild(fork, { ...options, port: taken }).catch((failure) => failure);
      expect(error).toBeInstanceOf(ServerStartError);
      expect(error.code).toBe('EADDRINUSE');
      expect(error.explanation).toBe(
        `Port ${taken} is already in use on 127.0.0.1; pass --port with another number, or --port 0 for a free one.`,
      );
      expect(children[0].exited).not.toBeNull();
    } finally {
      blocker.close();
    }
  });

  it('tells about a crash after start, and not about a requested stop', async () => {
    const crashed: number[] = [];
    const server = await launchServerChild(fork, options);
    const reported = new Promise<void>((resolve) =>
      server.onUnexpectedExit((code) => {
        crashed.push(code);
        resolve();
      }),
    );
    children[0].kill();
    await reported;
    expect(crashed).toEqual([-1]);

    const second = await launchServerChild(fork, options);
    second.onUnexpectedExit((code) => crashed.push(code));
    await second.stop();
    expect(crashed).toEqual([-1]);
  });

  it('gives up on a child that never reports, and kills it', async () => {
    const silent = new SilentChild();
    const error = await launchServerChild(() => silent, options, { readyTimeoutMs: 50 }).catch((failure) => failure);
    expect(error).toBeInstanceOf(ServerStartError);
    expect(error.explanation).toMatch(/did not start within/);
    expect(silent.killed).toBe(true);
  });

  it('kills a child that does not finish stopping in time', async () => {
    const silent = new SilentChild();
    const launching = launchServerChild(() => silent, options, { stopTimeoutMs: 30 });
    silent.emit('message', { type: 'ready', origin: 'http://127.0.0.1:5999', port: 5999, dbFile: options.dbFile });
    const server = await launching;
    await server.stop();
    expect(silent.killed).toBe(true);
  });

  it('rejects when the child exits while starting', async () => {
    const silent = new SilentChild();
    const launching = launchServerChild(() => silent, options);
    silent.emit('exit', 9);
    await expect(launching).rejects.toThrow('The Quire server stopped while starting (exit code 9).');
  });
});
