import type { IncomingMessage } from 'node:http';
import express, { type Request } from 'express';

/**
 * Checks `--trust-proxy` / QUIRE_TRUST_PROXY: a comma list of proxy addresses, CIDR ranges
 * (`10.0.0.0/8`, `fd00::/8`) or `loopback` (also `linklocal`, `uniquelocal`). Express's own
 * `trust proxy` setting (proxy-addr) reads the list, so it checks it too: what passes here is what
 * the server runs with. Throws a one-line Error naming the bad entry.
 */
export function parseTrustedProxies(list: string): string[] {
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const hint = 'give proxy addresses, CIDR ranges (10.0.0.0/8) or loopback, separated by commas';
  if (entries.length === 0) throw new Error(hint);
  try {
    express().set('trust proxy', entries);
  } catch (error) {
    throw new Error(`${(error as Error).message}; ${hint}`);
  }
  return entries;
}

/**
 * The client's address: the connection's peer, or, when the peer is a trusted proxy (Express's
 * `trust proxy`, set from `--trust-proxy`), the address it forwarded in X-Forwarded-For (the
 * rightmost one no trusted proxy added). Without trusted proxies, X-Forwarded-For is ignored.
 */
export function clientAddress(req: IncomingMessage): string {
  const forwarded = 'ip' in req ? (req as Request).ip : undefined;
  return forwarded ?? req.socket.remoteAddress ?? 'unknown';
}
