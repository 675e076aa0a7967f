import { isIPv4, isIPv6 } from 'node:net';
import { type NetworkInterfaceInfo, networkInterfaces } from 'node:os';
import { AppError } from '../errors/app-error.js';
import type { Guard } from './request-guard.js';

/**
 * The `Host` check that defeats DNS rebinding: a foreign page whose name was rebound to 127.0.0.1
 * still sends its own name as Host, so only loopback names/addresses and names the user
 * configured are served. An IP literal cannot be rebound, so this machine's own addresses are
 * safe to accept when it listens beyond loopback.
 */

/** A parsed `Host` header: the lower-cased hostname (IPv6 in brackets) and the port if given. */
export interface HostHeader {
  hostname: string;
  port: number | null;
}

const NAME = /^[a-z0-9_](?:[a-z0-9_-]{0,62})(?:\.[a-z0-9_](?:[a-z0-9_-]{0,62}))*\.?$/;

/** Parses a Host header value (`name`, `name:port`, `[v6]:port`); null when malformed. */
export function parseHostHeader(value: string): HostHeader | null {
  const match = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(value.trim().toLowerCase());
  if (!match) return null;
  const [, rawHost, rawPort] = match;
  const port = rawPort === undefined ? null : Number(rawPort);
  if (port !== null && port > 65535) return null;
  const hostname = normalizeHostname(rawHost);
  return hostname === null ? null : { hostname, port };
}

/** Lower-cases a hostname, drops a trailing dot, brackets IPv6; null when it is not a hostname. */
export function normalizeHostname(value: string): string | null {
  const text = value.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) return isIPv6(text.slice(1, -1)) ? text : null;
  if (isIPv6(text)) return `[${text}]`;
  if (text.length === 0 || text.length > 253 || !NAME.test(text)) return null;
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/** Whether a normalized hostname is loopback: `localhost`, 127.0.0.0/8 or `[::1]`. */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true;
  return isIPv4(hostname) && hostname.startsWith('127.');
}

/** What the host guard accepts besides loopback. */
export interface HostGuardOptions {
  /** Normalized hostnames (see `normalizeHostname`), any port. */
  allowedHosts: readonly string[];
}

/** Refuses a request whose Host is missing, repeated, malformed (400) or not ours (421). */
export function hostGuard({ allowedHosts }: HostGuardOptions): Guard {
  const allowed = new Set(allowedHosts);
  return (req) => {
    let hostHeaders = 0;
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      if (req.rawHeaders[i].toLowerCase() === 'host') hostHeaders++;
    }
    if (hostHeaders !== 1) return new AppError('bad_request', 'The request must carry exactly one Host header');
    const host = parseHostHeader(req.headers.host ?? '');
    if (!host) return new AppError('bad_request', 'The Host header is malformed');
    if (isLoopbackHostname(host.hostname) || allowed.has(host.hostname)) return null;
    return new AppError(
      'misdirected_request',
      `This Quire server does not answer to the host ${host.hostname}; start it with --allow-host ${host.hostname} to allow it`,
    );
  };
}

/** Whether a listen address (`--host`) is loopback only. */
export function isLoopbackListenAddress(host: string): boolean {
  const hostname = normalizeHostname(host);
  return hostname !== null && isLoopbackHostname(hostname);
}

/**
 * Hostnames to accept because the server listens on them: the address itself, or every address of
 * this machine for a wildcard (`0.0.0.0`, `::`). IP literals only: a name still needs --allow-host.
 */
export function listenHostnames(
  host: string,
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces(),
): string[] {
  const own = normalizeHostname(host);
  if (own !== '0.0.0.0' && own !== '[::]') return own === null ? [] : [own];
  const addresses = Object.values(interfaces)
    .flat()
    .filter((info): info is NetworkInterfaceInfo => info !== undefined && (info.family === 'IPv4' || !info.scopeid));
  return addresses.map((info) => normalizeHostname(info.address)).filter((name): name is string => name !== null);
}
