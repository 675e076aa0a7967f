import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { DELIVERY_HEADER, deliveryEchoRefusal, HookSender } from './hook-sender.js';

describe('a hook address that is plainly this server', () => {
  const on = (address: string, port: number) => {
    const sender = new HookSender();
    sender.listenOn({ address, port });
    return sender;
  };

  it('is its listening address and port however the host is written', () => {
    const sender = on('127.0.0.1', 4000);
    for (const url of [
      'http://127.0.0.1:4000/api/hooks/x/test',
      'http://localhost:4000/',
      'http://LOCALHOST:4000/',
      'http://app.localhost:4000/',
      'http://0.0.0.0:4000/',
      'http://[::]:4000/',
      'http://127.1:4000/',
      'http://2130706433:4000/',
      'http://[::ffff:127.0.0.1]:4000/',
    ]) {
      expect(sender.clearlySelf(url), url).toMatch(/this Quire server itself/);
    }
  });

  it('is not another port, nor another address when the server listens on one', () => {
    const sender = on('127.0.0.1', 4000);
    for (const url of ['http://127.0.0.1:4001/', 'http://localhost/', 'https://127.0.0.1/', 'http://10.1.2.3:4000/']) {
      expect(sender.clearlySelf(url), url).toBeNull();
    }
    expect(on('127.0.0.1', 80).clearlySelf('http://localhost/')).not.toBeNull();
    expect(on('127.0.0.1', 443).clearlySelf('https://localhost/')).not.toBeNull();
  });

  it('is any loopback or interface address of the machine when the server listens on all of them', () => {
    const sender = on('::', 8080);
    const interfaces = Object.values(networkInterfaces())
      .flat()
      .map((net) => net?.address)
      .filter((address): address is string => typeof address === 'string' && !address.includes('%'));
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', ...interfaces]) {
      const host = address.includes(':') ? `[${address}]` : address;
      expect(sender.clearlySelf(`http://${host}:8080/`), address).not.toBeNull();
    }
    expect(sender.clearlySelf('http://192.0.2.7:8080/')).toBeNull();
  });

  it('is nothing while the server has told no address', () => {
    expect(new HookSender().clearlySelf('http://127.0.0.1:4000/')).toBeNull();
  });
});

/** A receiver that holds every request until told to answer, counting how many it holds at most. */
async function holdingReceiver() {
  const held: ServerResponse[] = [];
  const received: IncomingMessage[] = [];
  let most = 0;
  const server: Server = createServer((req, res) => {
    received.push(req);
    req.resume();
    req.on('end', () => {
      held.push(res);
      most = Math.max(most, held.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/build`,
    held,
    received,
    most: () => most,
    answerAll() {
      for (const res of held.splice(0)) res.writeHead(200).end('ok');
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('sending', () => {
  let receiver: Awaited<ReturnType<typeof holdingReceiver>> | null = null;
  afterEach(async () => {
    await receiver?.close();
    receiver = null;
  });

  it('refuses a host that resolves to this server, without a request', async () => {
    const sender = new HookSender({
      maxInFlight: 4,
      resolve: async (host) => (host === 'build.example' ? ['127.0.0.1'] : []),
    });
    sender.listenOn({ address: '127.0.0.1', port: 4000 });
    const outcome = await sender.send('http://build.example:4000/api/hooks/x/test', '{}', null, {}, 5000);
    expect(outcome).toEqual({ ok: false, status: null, error: expect.stringMatching(/this Quire server itself/) });
  });

  it('stamps each delivery with its own id', async () => {
    receiver = await holdingReceiver();
    const sender = new HookSender();
    const sending = [
      sender.send(receiver.url, '{}', null, {}, 10_000),
      sender.send(receiver.url, '{}', null, {}, 10_000),
    ];
    while (receiver.held.length < 2) await new Promise((resolve) => setImmediate(resolve));
    receiver.answerAll();
    expect((await Promise.all(sending)).map((outcome) => outcome.ok)).toEqual([true, true]);
    const ids = receiver.received.map((req) => req.headers[DELIVERY_HEADER.toLowerCase()]);
    expect(ids.every((id) => typeof id === 'string' && id.length >= 12)).toBe(true);
    expect(new Set(ids).size).toBe(2);
  });

  it('has at most its cap in flight; the rest wait their turn and are all sent', async () => {
    receiver = await holdingReceiver();
    const cap = 3;
    const total = 10;
    const sender = new HookSender({ maxInFlight: cap });
    const sending = Array.from({ length: total }, () => sender.send(receiver!.url, '{}', null, {}, 30_000));
    let answered = 0;
    while (answered < total) {
      // Answers only once as many are held as the cap lets in: without a cap, all ten are.
      while (receiver.held.length < Math.min(cap, total - answered)) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      answered += receiver.held.length;
      receiver.answerAll();
    }
    expect((await Promise.all(sending)).every((outcome) => outcome.ok)).toBe(true);
    expect(receiver.received).toHaveLength(total);
    expect(receiver.most()).toBe(cap);
  });
});

describe('a request a delivery sent', () => {
  const request = (method: string, headers: Record<string, string>) => ({ method, headers }) as IncomingMessage;

  it('may not write', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(deliveryEchoRefusal(request(method, { 'quire-delivery': 'abc' }))?.status, method).toBe(403);
    }
  });

  it('may read, and a request without the header may write', () => {
    expect(deliveryEchoRefusal(request('GET', { 'quire-delivery': 'abc' }))).toBeNull();
    expect(deliveryEchoRefusal(request('POST', {}))).toBeNull();
  });
});
