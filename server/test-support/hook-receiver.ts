import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as sent (signatures are checked over these bytes). */
  raw: string;
  body: any;
}

/** A build-hook receiver on 127.0.0.1 (a free port) recording what it gets. */
export interface HookReceiver {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  received: ReceivedHook[];
  /**
   * How the next requests are answered, in order (then 200): a status, `hang` (never answered), or
   * a redirect `{ redirect: url }`.
   */
  answers: (number | 'hang' | { redirect: string })[];
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  close(): Promise<void>;
}

/** Starts a receiver. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  const answers: HookReceiver['answers'] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      received.push({ path: req.url ?? '', headers: req.headers, raw, body });
      for (const wake of waiters.splice(0)) wake();
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') return;
      if (typeof answer === 'object') {
        res.writeHead(302, { location: answer.redirect }).end();
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    answers,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the receiver got ${received.length} requests, not ${count}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
