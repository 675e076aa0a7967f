import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from './app.js';
import { openDatabase, type QuireDb } from './db/database.js';
import type { Services } from './http/services.js';

/** How to start a Quire server. */
export interface ServerOptions {
  dbFile: string;
  port: number;
  host: string;
  editorName: string | null;
  editorDir?: string | null;
  bodyLimit?: number;
  log?: (message: string, error: unknown) => void;
  /** better-sqlite3 addon for a non-Node runtime (Electron); see `SqliteOptions`. */
  nativeBinding?: string;
}

/** A running server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:4780`. */
  origin: string;
  port: number;
  host: string;
  database: QuireDb;
  services: Services;
  /** Stops accepting requests, ends open connections and closes the database. */
  close(): Promise<void>;
}

/** Opens the database and starts listening; resolves once requests can be served. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const database = await openDatabase(options.dbFile, { nativeBinding: options.nativeBinding });
  let server: Server;
  let services: Services;
  try {
    const built = await createApp({
      database,
      editorName: options.editorName,
      editorDir: options.editorDir,
      bodyLimit: options.bodyLimit,
      log: options.log,
    });
    services = built.services;
    server = createServer(built.app);
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const hostInUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
  let closing: Promise<void> | undefined;
  return {
    origin: `http://${hostInUrl}:${port}`,
    port,
    host: options.host,
    database,
    services,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // Requests in flight get a moment to finish; then their sockets are ended.
        setTimeout(() => server.closeAllConnections(), 2_000).unref();
      }).then(() => database.close());
      return closing;
    },
  };
}
