import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { type AppOptions, createApp, type QuireApp } from '../app.js';
import type { QuireDb } from '../db/database.js';
import { bodyParsers, DEFAULT_BODY_LIMIT } from '../http/body-parsing.js';
import { withFastPaths } from '../http/fast-paths.js';
import { localhostGuards } from '../http/localhost-guards.js';

/** The API token of the guarded pair (see fastPathServers). */
export const FAST_PATH_TOKEN = 'a-long-enough-test-token';

/** Where the servers of fastPathServers listen (`127.0.0.1:port`), and the apps behind them. */
export interface FastPathServers {
  /** Express alone, and the fast paths in front of the same app, without guards' options. */
  viaExpress: string;
  viaFastPath: string;
  /** The same pair with an API token required and `http://reader.example` allowed to read. */
  tokenExpress: string;
  tokenFastPath: string;
  open: QuireApp;
  /**
   * A new app (the same options) served through the fast paths, counting the requests they hand
   * to Express: where it listens, and the count so far.
   */
  countingExpress(): Promise<{ base: string; expressCalls: () => number }>;
  close(): void;
}

/**
 * Servers over one database for comparing the fast read and write paths with Express: each pair
 * serves one app through Express alone and through its fast-path listener.
 */
export async function fastPathServers(database: QuireDb, options: Partial<AppOptions> = {}): Promise<FastPathServers> {
  const servers: Server[] = [];
  const listen = async (listener: RequestListener) => {
    const server = createServer({ requireHostHeader: false }, listener);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const base = { database, editorName: 'tester', log: () => {}, ...options };
  const open = await createApp(base);
  const guarded = await createApp({
    ...base,
    security: { token: FAST_PATH_TOKEN, corsOrigins: ['http://reader.example'] },
  });
  return {
    viaExpress: await listen(open.app),
    viaFastPath: await listen(open.listener),
    tokenExpress: await listen(guarded.app),
    tokenFastPath: await listen(guarded.listener),
    open,
    countingExpress: async () => {
      const { app, services } = await createApp(base);
      let calls = 0;
      const counting = ((req: IncomingMessage, res: ServerResponse) => {
        calls++;
        return app(req, res);
      }) as unknown as Express;
      const parsers = bodyParsers({ bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
      const guards = localhostGuards().all;
      return {
        base: await listen(withFastPaths(counting, services, { guards, parsers, log: () => {} })),
        expressCalls: () => calls,
      };
    },
    close: () => {
      for (const server of servers) server.close();
    },
  };
}
