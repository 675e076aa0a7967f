import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningServer, type ServerOptions, startServer } from '../../server/server.js';
import { explainChildStartError, REBUILD_COMMAND, runServerChild } from './server-child.js';
import type { ChildMessage, ServerChildOptions } from './server-child-protocol.js';

/** The real child code and the real server, with the parent port and exit recorded. */
function harness() {
  const port = new EventEmitter();
  const messages: ChildMessage[] = [];
  const exits: number[] = [];
  const servers: RunningServer[] = [];
  let notify = () => {};
  runServerChild(
    {
      on: (event, listener) => port.on(event, listener),
      postMessage: (message) => {
        messages.push(message);
        notify();
      },
    },
    {
      startServer: async (options: ServerOptions) => {
        const server = await startServer({ ...options, backups: false });
        servers.push(server);
        return server;
      },
      exit: (code) => {
        exits.push(code);
        notify();
      },
    },
  );
  return {
    messages,
    exits,
    servers,
    send: (data: unknown) => port.emit('message', { data }),
    /** Resolves once `count` messages arrived. */
    until(count: number): Promise<void> {
      return new Promise((resolve) => {
        notify = () => {
          if (messages.length >= count) resolve();
        };
        notify();
      });
    },
  };
}

describe('server child', () => {
  let dir: string;
  let options: ServerChildOptions;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quire-child-'));
    options = { dbFile: join(dir, 'content.sqlite'), port: 0, host: '127.0.0.1', editorName: 'ana', editorDir: null };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the database after start and reports where', async () => {
    const child = harness();
    child.send({ type: 'start', options });
    await child.until(1);
    const [ready] = child.messages;
    expect(ready).toMatchObject({ type: 'ready', dbFile: options.dbFile });
    if (ready.type !== 'ready') throw new Error('not ready');
    expect(ready.port).toBeGreaterThan(0);
    const response = await fetch(`${ready.origin}/api/cms/news`);
    expect(response.status).toBe(200);
    child.send({ type: 'stop' });
    await child.until(2);
  });

  it('closes the server and exits 0 on stop', async () => {
    const child = harness();
    child.send({ type: 'start', options });
    await child.until(1);
    const ready = child.messages[0] as Extract<ChildMessage, { type: 'ready' }>;
    child.send({ type: 'stop' });
    await child.until(2);
    expect(child.messages[1]).toEqual({ type: 'stopped' });
    expect(child.exits).toEqual([0]);
    await expect(fetch(`${ready.origin}/api/cms/news`)).rejects.toThrow();
  });

  it('records rows the server acknowledged before stopping', async () => {
    const child = harness();
    child.send({ type: 'start', options });
    await child.until(1);
    const ready = child.messages[0] as Extract<ChildMessage, { type: 'ready' }>;
    const created = await fetch(`${ready.origin}/api/cms/news`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ title: 'Kept', status: 'draft', published_at: '2024-05-01 10:00:00' }),
    });
    expect(created.status).toBe(201);
    child.send({ type: 'stop' });
    await child.until(2);

    const again = harness();
    again.send({ type: 'start', options });
    await again.until(1);
    const reopened = again.messages[0] as Extract<ChildMessage, { type: 'ready' }>;
    const list = (await (await fetch(`${reopened.origin}/api/cms/news`)).json()) as { rows: { title: string }[] };
    expect(list.rows.map((row) => row.title)).toEqual(['Kept']);
    again.send({ type: 'stop' });
    await again.until(2);
  });

  it('reports a file that is not a database in one line and exits 1', async () => {
    writeFileSync(options.dbFile, 'not a database, just text '.repeat(100));
    const child = harness();
    child.send({ type: 'start', options });
    await child.until(1);
    expect(child.messages[0]).toEqual({
      type: 'start-failed',
      code: 'SQLITE_NOTADB',
      explanation: `${options.dbFile} is not a Quire database (not a SQLite file).`,
    });
    expect(child.exits).toEqual([1]);
  });

  it('stops right after starting when stop arrives while it starts', async () => {
    const child = harness();
    child.send({ type: 'start', options });
    child.send({ type: 'stop' });
    await child.until(1);
    expect(child.messages).toEqual([{ type: 'stopped' }]);
    expect(child.exits).toEqual([0]);
    await expect(fetch(`${child.servers[0].origin}/api/cms/news`)).rejects.toThrow();
  });

  it('ignores malformed messages and a second start', async () => {
    const child = harness();
    child.send('start');
    child.send({ type: 'start', options: { ...options, port: -1 } });
    child.send({ type: 'start', options });
    child.send({ type: 'start', options: { ...options, dbFile: join(dir, 'other.sqlite') } });
    await child.until(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(child.messages).toHaveLength(1);
    expect(child.servers).toHaveLength(1);
    child.send({ type: 'stop' });
    await child.until(2);
  });
});

describe('start errors explained', () => {
  const options: ServerChildOptions = {
    dbFile: '/data/content.sqlite',
    port: 4780,
    host: '127.0.0.1',
    editorName: 'ana',
    editorDir: null,
  };

  it('names the rebuild command when the addon was built for another runtime', () => {
    const error = Object.assign(
      new Error(
        "The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115.",
      ),
      { code: 'ERR_DLOPEN_FAILED' },
    );
    expect(explainChildStartError(error, options)).toContain(REBUILD_COMMAND);
  });

  it('names the rebuild command when the Electron addon is missing', () => {
    const error = Object.assign(new Error("Cannot find module '/app/native/electron/better_sqlite3.node'"), {
      code: 'MODULE_NOT_FOUND',
    });
    expect(explainChildStartError(error, options)).toBe(
      `The SQLite module for Electron is missing; run ${REBUILD_COMMAND} (npm start does it for you).`,
    );
  });

  it('explains the other failures as the command line does', () => {
    const error = Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });
    expect(explainChildStartError(error, options)).toBe(
      'Port 4780 is already in use on 127.0.0.1; pass --port with another number, or --port 0 for a free one.',
    );
  });
});
