import { randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BlockList, isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { AppError } from '../errors/app-error.js';
import { SAFE_METHODS } from '../http/origin-guard.js';
import { type DeliveryOutcome, postHook } from './hook-delivery.js';

/**
 * The header every delivery carries, holding the delivery's own id. A request carrying it may not
 * change anything on a Quire server (see `deliveryEchoRefusal`), so a delivery never starts another
 * one: two servers whose hooks point at each other, or one reached through a proxy, cannot loop.
 */
export const DELIVERY_HEADER = 'Quire-Delivery';

/**
 * Why a request may not run: a write (any method but GET, HEAD and OPTIONS) carrying
 * DELIVERY_HEADER comes from a build-hook delivery, and a write could start another delivery.
 * Refused before anything runs, so nothing changes; reads are answered.
 */
export function deliveryEchoRefusal(req: IncomingMessage): AppError | null {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return null;
  if (req.headers[DELIVERY_HEADER.toLowerCase()] === undefined) return null;
  return new AppError(
    'forbidden',
    `A request sent by a build-hook delivery (${DELIVERY_HEADER}) may not change anything: it could start another delivery`,
  );
}

/** Most deliveries (tests included) one server has in flight at once, unless told otherwise. */
export const DEFAULT_MAX_IN_FLIGHT = 4;

/** Where the server listens: an address (`127.0.0.1`, `::`, `0.0.0.0`...) and a port. */
export interface ListeningAddress {
  address: string;
  port: number;
}

/** How a host name becomes addresses (tests pass their own). */
export type HostResolver = (host: string) => Promise<string[]>;

/** The system's resolution, as fetch would connect (every address it gives). */
export async function resolveHost(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((found) => found.address);
}

/**
 * Sends every delivery of one server: never to the server itself (its listening address and port,
 * however the hook's host names them), at most `maxInFlight` at once (the others wait their turn),
 * each stamped with DELIVERY_HEADER.
 */
export class HookSender {
  private listening: ListeningAddress | null = null;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  private readonly maxInFlight: number;
  private readonly resolve: HostResolver;

  constructor(options: { maxInFlight?: number; resolve?: HostResolver } = {}) {
    this.maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
    this.resolve = options.resolve ?? resolveHost;
  }

  /** Tells the sender where its server listens (a pipe or none: nothing to compare with). */
  listenOn(address: AddressInfo | ListeningAddress | string | null): void {
    this.listening = address !== null && typeof address === 'object' ? address : null;
  }

  /**
   * Why `url` is plainly this server, from its text alone (its host an address of this server or
   * `localhost`, on its port), or null: what a hook write is refused for.
   */
  clearlySelf(url: string): string | null {
    const target = targetOf(url);
    if (!target || !this.listening) return null;
    const host = target.host.toLowerCase();
    const named = isIP(host) ? [host] : host === 'localhost' || host.endsWith('.localhost') ? ['127.0.0.1', '::1'] : [];
    return this.selfAmong(named, target.port);
  }

  /** POSTs a delivery (see postHook) once a place is free, unless its host resolves to this server. */
  async send(
    url: string,
    body: string,
    secret: string | null,
    headers: Record<string, string>,
    timeoutMs: number,
    stop?: AbortSignal,
  ): Promise<DeliveryOutcome> {
    await this.place();
    try {
      const refused = await this.selfByResolution(url);
      if (refused) return { ok: false, status: null, error: refused };
      const stamped = { ...headers, [DELIVERY_HEADER]: randomBytes(9).toString('base64url') };
      return await postHook(url, body, secret, stamped, timeoutMs, stop);
    } finally {
      this.leave();
    }
  }

  /** Why `url`'s host, resolved now, is this server, or null (an unresolvable host fails at fetch). */
  private async selfByResolution(url: string): Promise<string | null> {
    const target = targetOf(url);
    if (!target || !this.listening || target.port !== this.listening.port) return null;
    if (isIP(target.host)) return this.selfAmong([target.host], target.port);
    try {
      return this.selfAmong(await this.resolve(target.host), target.port);
    } catch {
      return null;
    }
  }

  private selfAmong(addresses: readonly string[], port: number): string | null {
    const listening = this.listening;
    if (!listening || port !== listening.port) return null;
    const own = ownAddresses(listening.address);
    const hit = addresses.find((address) => {
      const family = isIP(address);
      return family !== 0 && own.check(address, family === 6 ? 'ipv6' : 'ipv4');
    });
    return hit === undefined
      ? null
      : `The hook's address is this Quire server itself (${hit} port ${port}): a delivery would call Quire again`;
  }

  private async place(): Promise<void> {
    while (this.inFlight >= this.maxInFlight) await new Promise<void>((wake) => this.waiting.push(wake));
    this.inFlight += 1;
  }

  private leave(): void {
    this.inFlight -= 1;
    this.waiting.shift()?.();
  }
}

/** A hook URL's host (brackets of an IPv6 address removed) and port (the scheme's default when none). */
function targetOf(url: string): { host: string; port: number } | null {
  try {
    const parsed = new URL(url);
    const port = parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
    return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
  } catch {
    return null;
  }
}

const UNSPECIFIED = ['0.0.0.0', '::'];

/**
 * The addresses a connection reaches a server listening on `address` through: that address; for a
 * loopback one, also the unspecified addresses (a connection to 0.0.0.0 or :: goes to loopback);
 * for an unspecified one, every loopback address and every address of this machine's interfaces.
 * IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) match their IPv4 form.
 */
function ownAddresses(address: string): BlockList {
  const list = new BlockList();
  const add = (one: string) => {
    const family = isIP(one);
    if (family !== 0) list.addAddress(one, family === 6 ? 'ipv6' : 'ipv4');
  };
  const loopback = () => {
    list.addSubnet('127.0.0.0', 8, 'ipv4');
    add('::1');
    for (const one of UNSPECIFIED) add(one);
  };
  add(address);
  if (UNSPECIFIED.includes(address)) {
    loopback();
    for (const nets of Object.values(networkInterfaces())) for (const net of nets ?? []) add(net.address.split('%')[0]);
  } else if (isLoopback(address)) {
    for (const one of UNSPECIFIED) add(one);
  }
  return list;
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^127\./.test(address) || /^::ffff:127\./i.test(address);
}
