// Engine: PostgreSQL only: it cuts the connection to a PostgreSQL database of its own through a relay, and restores it.

import { type AddressInfo, createServer, connect as netConnect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { request } from '../test-support/api-scenario.js';
import { createTestDatabase, postgresForTests, skipNote, type TestDatabase } from '../test-support/postgres.js';
import type { TestServer } from '../test-support/test-server.js';

/**
 * A real Quire server on PostgreSQL whose database goes away while it serves, and comes back: the
 * server talks to PostgreSQL through a TCP relay the test can cut, as a network failure or a
 * stopped database would. While it is cut every request that needs the database is 503
 * `database_unavailable` (fast reads included), nothing half-written appears, and once it is back
 * the same server answers again without a restart.
 */

const postgres = await postgresForTests();

/** A TCP relay from a local port to PostgreSQL that can be cut (listener and live connections) and restored. */
class CuttableRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = netConnect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {}); // a cut connection; each side is destroyed with the other
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    // The same port again after a cut, so the server's pool finds the database where it was.
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  get isOpen(): boolean {
    return this.server !== null;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => server?.close(resolve));
  }
}

describe.skipIf(!postgres.available)(`a PostgreSQL database that goes away while serving${skipNote(postgres)}`, () => {
  let database: TestDatabase;
  let relay: CuttableRelay;
  let server: TestServer;

  beforeAll(async () => {
    if (!postgres.available) return;
    database = await createTestDatabase(postgres.url);
    relay = new CuttableRelay(database.target.host, database.target.port);
    await relay.open();
    const running = await startServer({
      port: 0,
      host: '127.0.0.1',
      editorName: 'tester',
      log: () => {},
      backups: false,
      dbFile: ':memory:',
      // A short connect timeout: a cut relay refuses at once anyway, but nothing here should wait 10s.
      postgres: { ...database.target, port: relay.port, connectTimeoutSeconds: 2 },
    });
    server = { ...running, api: `${running.origin}/api` } as TestServer;
  });

  afterAll(async () => {
    // Back on first if a failure left it cut: closing the pool waits on connections it cannot end.
    if (relay && !relay.isOpen) await relay.open();
    await server?.close();
    await relay?.cut();
    await database?.drop();
  });

  it('answers 503 database_unavailable while it is gone, then serves again without a restart', async () => {
    const saved = await request(server, 'POST', '/cms/news', {
      body: { title: 'Before the cut', status: 'draft', published_at: '2025-01-01 10:00:00' },
    });
    expect(saved.response.status, saved.text).toBe(201);

    await relay.cut();
    for (const path of ['/cms/news', `/cms/news/${saved.body.id}`, '/cms/news?filter=search%3Dcut']) {
      const read = await request(server, 'GET', path);
      expect(read.response.status, `${path}: ${read.text}`).toBe(503);
      expect(read.body.error).toMatchObject({ status: 503, code: 'database_unavailable' });
      expect(read.body.error.message).toContain('nothing was changed');
      expect(read.text).not.toContain(String(relay.port));
    }
    const lost = await request(server, 'POST', '/cms/news', {
      body: { title: 'During the cut', status: 'draft', published_at: '2025-01-01 10:00:00' },
    });
    expect(lost.response.status, lost.text).toBe(503);
    expect(lost.body.error.code).toBe('database_unavailable');
    expect(lost.body.error.message).toContain('the change was not saved');
    const changed = await request(server, 'PUT', `/cms/news/${saved.body.id}`, {
      body: { title: 'Changed in the cut' },
    });
    expect(changed.response.status, changed.text).toBe(503);

    await relay.open();
    const after = await request(server, 'GET', '/cms/news');
    expect(after.response.status, after.text).toBe(200);
    // Neither refused write is there, not even in part; the acknowledged one is.
    expect(after.body.rows.map((row: { title: string }) => row.title)).toEqual(['Before the cut']);
    const again = await request(server, 'POST', '/cms/news', {
      body: { title: 'After the cut', status: 'draft', published_at: '2025-01-01 10:00:00' },
    });
    expect(again.response.status, again.text).toBe(201);
  });
});
