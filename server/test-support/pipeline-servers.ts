import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What tests of the one request pipeline share: the headers every API answer carries, and plain
 * Node servers around a request listener (no Express in front), listening on free local ports.
 */

/** The security headers of every API answer, as [name, value] pairs. */
export const SECURITY_HEADERS = [
  ['cross-origin-resource-policy', 'same-origin'],
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
];

/** The content type of every JSON answer, as a [name, value] pair. */
export const JSON_CONTENT_TYPE = ['content-type', 'application/json; charset=utf-8'];

/** Servers a test starts around request listeners: `listen` answers `host:port`; `close` stops them all. */
export function pipelineServers(): { listen(listener: RequestListener): Promise<string>; close(): void } {
  const servers: Server[] = [];
  return {
    async listen(listener) {
      const server = createServer({ requireHostHeader: false }, listener);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close() {
      for (const server of servers) server.close();
    },
  };
}
