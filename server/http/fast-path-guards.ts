import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

/** Thrown when a guard needs more of Express than the views offer: Express answers instead. */
export class NeedsExpress extends Error {}

/** The raw request, refusing what only Express's request adds (req.get, req.hostname...). */
function requestView(req: IncomingMessage): IncomingMessage {
  return new Proxy(req, {
    get(target, property) {
      if (!(property in target)) throw new NeedsExpress(String(property));
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The raw response plus Express's `set` and `vary` as guards use them; nothing else of Express.
 * `touched` says whether a guard set a header (then the answer merges its headers with them).
 */
function responseView(res: ServerResponse) {
  const view = {
    touched: false,
    setHeader: (name: string, value: string | number | readonly string[]) => {
      view.touched = true;
      res.setHeader(name, value);
      return view;
    },
    getHeader: (name: string) => res.getHeader(name),
    hasHeader: (name: string) => res.hasHeader(name),
    set(field: string | Record<string, string>, value?: string) {
      const fields = typeof field === 'string' ? { [field]: value } : field;
      for (const [name, text] of Object.entries(fields)) {
        // Express adds a charset to Content-Type; guards never set it, so leave that to Express.
        if (name.toLowerCase() === 'content-type') throw new NeedsExpress('set content-type');
        view.touched = true;
        res.setHeader(name, String(text));
      }
      return view;
    },
    vary(field: string) {
      const current = String(res.getHeader('Vary') ?? '');
      const names = current.split(',').map((name) => name.trim().toLowerCase());
      if (!names.includes('*') && !names.includes(field.toLowerCase())) {
        view.touched = true;
        res.setHeader('Vary', current ? `${current}, ${field}` : field);
      }
      return view;
    },
  };
  const proxy = new Proxy(view, {
    get(target, property) {
      if (!(property in target)) throw new NeedsExpress(String(property));
      return Reflect.get(target, property);
    },
  });
  return { view, proxy };
}

/**
 * Runs the server's guards (Express middleware) on a request answered in front of Express, in
 * their order, except `skip`. Express would re-prototype req and res, which makes every later use
 * of them slow (measured: node:http from 35k to 6k req/s); they get views instead, with the few
 * response helpers guards use. Resolves to whether a guard set a response header; rejects when a
 * guard refuses or needs more of Express (NeedsExpress), and then Express must answer the request
 * (its guards run again there, and a refusal comes from the one error middleware).
 */
export async function passGuards(
  guards: readonly RequestHandler[],
  req: IncomingMessage,
  res: ServerResponse,
  skip?: RequestHandler,
): Promise<{ touched: boolean }> {
  const expressReq = requestView(req) as unknown as Parameters<RequestHandler>[0];
  const response = responseView(res);
  const expressRes = response.proxy as unknown as Parameters<RequestHandler>[1];
  for (const guard of guards) {
    if (guard === skip) continue;
    // Guards call next() at once; one that waits is awaited.
    let passed: boolean | undefined;
    let resume: ((passed: boolean) => void) | undefined;
    guard(expressReq, expressRes, (error?: unknown) => {
      passed = error === undefined;
      resume?.(passed);
    });
    if (passed === undefined) passed = await new Promise<boolean>((resolve) => (resume = resolve));
    if (!passed) throw new NeedsExpress('refused');
  }
  return response.view;
}
