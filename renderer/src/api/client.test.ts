import { describe, expect, it, vi } from 'vitest';
import { ApiError, describeError } from './api-error.js';
import type { TokenStore } from './auth-token.js';
import { createApiClient, queryString } from './client.js';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

const unauthorized = () =>
  json(401, { error: { status: 401, code: 'unauthorized', message: 'This server needs an API token' } });

function memoryTokens(initial: string | null = null): TokenStore & { value: string | null } {
  const store = {
    value: initial,
    get: () => store.value,
    set: (token: string) => {
      store.value = token;
    },
    clear: () => {
      store.value = null;
    },
  };
  return store;
}

/** A fake server that wants `Bearer right` and records the Authorization header of each call. */
function guardedServer() {
  const seen: (string | null)[] = [];
  const fetch = vi.fn(async (_url: RequestInfo | URL, init?: RequestInit) => {
    const auth = new Headers(init?.headers).get('Authorization');
    seen.push(auth);
    return auth === 'Bearer right' ? json(200, { count: 0, content_types: [] }) : unauthorized();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}

describe('the API client', () => {
  it('builds list queries in the server parameter names', () => {
    expect(
      queryString({ filter: ['search=a&b', 'status=published'], limit: 50, offset: 100, order: 'title', desc: true }),
    ).toBe('?filter=search%3Da%26b&filter=status%3Dpublished&limit=50&offset=100&order=title&desc=true');
    expect(queryString({ desc: false })).toBe('');
  });

  it('names the locale of reads, lists and writes in it, and none elsewhere', async () => {
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST' ? json(201, { id: 'x', rows: [{ id: 'x' }] }) : json(200, { rows: [{ id: 'x' }] }),
    );
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, tokens: memoryTokens() });
    await client.getRow('news', 'x', undefined, 'de-AT');
    await client.listRows('news', { filter: 'missing:de-AT', locale: 'de-AT' });
    await client.createRow('news', { title: 'A' }, 'de-AT');
    await client.updateRow('news', 'x', { title: 'B' }, '"v1"', 'de-AT');
    await client.updateRow('news', null, { title: 'C' }, undefined, 'de-AT');
    await client.getRow('news', 'x');
    await client.createRow('news', { title: 'D' });
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${url}`)).toEqual([
      'GET /api/cms/news/x?locale=de-AT',
      'GET /api/cms/news?filter=missing%3Ade-AT&locale=de-AT',
      'POST /api/cms/news?locale=de-AT',
      'PUT /api/cms/news/x?locale=de-AT',
      'PUT /api/cms/news?locale=de-AT',
      'GET /api/cms/news/x',
      'POST /api/cms/news',
    ]);
  });

  it('sends writes as JSON and returns the typed answer', async () => {
    const fetch = vi.fn(async () => json(201, { id: 'x', rows: [{ id: 'x' }] }));
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, tokens: memoryTokens() });
    const created = await client.createRow('news', { title: 'A', meta: null });
    expect(created.id).toBe('x');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/cms/news');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('Content-Type')).toBe('application/json');
    expect(JSON.parse(init.body as string)).toEqual({ title: 'A', meta: null });
  });

  it('turns the error body into an ApiError with the per-field problems', async () => {
    const body = {
      error: { status: 400, code: 'validation_failed', message: 'Invalid', fields: { title: 'is required' } },
    };
    const client = createApiClient({ fetch: (async () => json(400, body)) as typeof fetch, tokens: memoryTokens() });
    const error = await client.createRow('news', {}).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', fields: { title: 'is required' } });
  });

  it('reports an unreachable server in words, not as a TypeError', async () => {
    const client = createApiClient({
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch,
      tokens: memoryTokens(),
    });
    const error = await client.listContentTypes().catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'network_error' });
    expect(describeError(error)).toMatch(/Cannot reach the Quire server/);
  });

  it('asks for the API token once on a 401, keeps it, and sends it as a Bearer token from then on', async () => {
    const server = guardedServer();
    const tokens = memoryTokens();
    const requestToken = vi.fn(async () => 'right');
    const client = createApiClient({ fetch: server.fetch, tokens, requestToken });
    await Promise.all([client.listContentTypes(), client.listContentTypes(), client.listContentTypes()]);
    await client.listContentTypes();
    expect(requestToken).toHaveBeenCalledTimes(1);
    expect(requestToken).toHaveBeenCalledWith('missing');
    expect(tokens.value).toBe('right');
    expect(server.seen.slice(-4)).toEqual(['Bearer right', 'Bearer right', 'Bearer right', 'Bearer right']);
  });

  it('asks again, saying so, when the kept token is refused', async () => {
    const server = guardedServer();
    const requestToken = vi.fn(async () => 'right');
    const client = createApiClient({ fetch: server.fetch, tokens: memoryTokens('stale'), requestToken });
    await client.listContentTypes();
    expect(requestToken).toHaveBeenCalledWith('rejected');
    expect(server.seen).toEqual(['Bearer stale', 'Bearer right']);
  });

  it('gives up with the 401 when the user declines to give a token', async () => {
    const server = guardedServer();
    const client = createApiClient({ fetch: server.fetch, tokens: memoryTokens(), requestToken: async () => null });
    await expect(client.listContentTypes()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('keeps the token in sessionStorage by default, so a reload does not ask again', async () => {
    sessionStorage.clear();
    const server = guardedServer();
    const first = createApiClient({ fetch: server.fetch, requestToken: async () => 'right' });
    await first.listContentTypes();
    expect(sessionStorage.getItem('quire.apiToken')).toBe('right');
    const requestToken = vi.fn(async () => 'unused');
    const second = createApiClient({ fetch: server.fetch, requestToken });
    await second.listContentTypes();
    expect(requestToken).not.toHaveBeenCalled();
  });
});

/** A stand-in XMLHttpRequest answering from a script of (status, body) pairs, recording what was sent. */
function scriptedXhr(answers: [number, unknown][]) {
  const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  class FakeXhr {
    status = 0;
    responseText = '';
    upload = new EventTarget();
    private events = new EventTarget();
    private url = '';
    private headers: Record<string, string> = {};
    withCredentials = false;
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    addEventListener(type: string, listener: EventListener) {
      this.events.addEventListener(type, listener);
    }
    abort() {}
    send(body: unknown) {
      sent.push({ url: this.url, headers: this.headers, body });
      const [status, payload] = answers.shift() ?? [500, {}];
      queueMicrotask(() => {
        this.upload.dispatchEvent(
          Object.assign(new Event('progress'), { lengthComputable: true, loaded: 5, total: 10 }),
        );
        this.status = status;
        this.responseText = JSON.stringify(payload);
        this.events.dispatchEvent(new Event('load'));
      });
    }
  }
  return { FakeXhr, sent };
}

describe('uploads', () => {
  it('send the file as multipart by XMLHttpRequest, report progress, and ask for the token on a 401', async () => {
    const answer = { path: '/media/2025/03/x.png', type: 'image/png', size: 4 };
    const { FakeXhr, sent } = scriptedXhr([
      [401, { error: { status: 401, code: 'unauthorized', message: 'This server needs an API token' } }],
      [201, answer],
    ]);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    try {
      const requestToken = vi.fn(async () => 'right');
      const client = createApiClient({ tokens: memoryTokens(), requestToken });
      const progress = vi.fn();
      const file = new File([new Uint8Array([1, 2, 3, 4])], 'x.png', { type: 'image/png' });
      expect(await client.uploadFile(file, { onProgress: progress })).toEqual(answer);
      expect(requestToken).toHaveBeenCalledWith('missing');
      expect(progress).toHaveBeenCalledWith(0.5);
      expect(sent.map((request) => [request.url, request.headers.Authorization])).toEqual([
        ['/api/uploads', undefined],
        ['/api/uploads', 'Bearer right'],
      ]);
      const form = sent[1].body as FormData;
      expect((form.get('file') as File).name).toBe('x.png');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('turn a refusal into an ApiError with the status, for the field to explain', async () => {
    const { FakeXhr } = scriptedXhr([
      [415, { error: { status: 415, code: 'unsupported_media_type', message: 'Only PNG, JPEG...' } }],
    ]);
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    try {
      const client = createApiClient({ tokens: memoryTokens() });
      const error = await client.uploadFile(new Blob(['text'])).catch((failure: unknown) => failure);
      expect(error).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('content-type writes', () => {
  it('go to /api/cms-content with the type as JSON, and force only when asked', async () => {
    const fetch = vi.fn(async () => json(200, { slug: 'recipes' }));
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, tokens: memoryTokens() });
    await client.createContentType({ title: 'Recipes', columns: [] });
    await client.updateContentType('blog posts', { title: 'Posts' });
    await client.deleteContentType('recipes');
    await client.deleteContentType('recipes', { force: true });
    const calls = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([url, init]) => [init.method, url, init.body])).toEqual([
      ['POST', '/api/cms-content', '{"title":"Recipes","columns":[]}'],
      ['PUT', '/api/cms-content/blog%20posts', '{"title":"Posts"}'],
      ['DELETE', '/api/cms-content/recipes', undefined],
      ['DELETE', '/api/cms-content/recipes?force=true', undefined],
    ]);
  });

  it('send If-Match when given and answer with the ETag as the version', async () => {
    const fetch = vi.fn(
      async () =>
        new Response('{"slug":"recipes"}', {
          status: 200,
          headers: { 'Content-Type': 'application/json', ETag: '"v2"' },
        }),
    );
    const client = createApiClient({ fetch: fetch as unknown as typeof globalThis.fetch, tokens: memoryTokens() });
    expect(await client.updateContentType('recipes', { title: 'Dishes' }, '"v1"')).toEqual({
      slug: 'recipes',
      version: '"v2"',
    });
    await client.deleteContentType('recipes', { ifMatch: '"v2"' });
    const calls = fetch.mock.calls as unknown as [string, RequestInit][];
    expect(calls.map(([, init]) => (init.headers as Record<string, string>)['If-Match'])).toEqual(['"v1"', '"v2"']);
  });

  it('keep the rows that block a delete on the error', async () => {
    const references = [{ table: 'articles', id: 'a1', title: 'Harbour', column: 'category' }];
    const body = { error: { status: 409, code: 'conflict', message: 'Still used', references } };
    const client = createApiClient({ fetch: (async () => json(409, body)) as typeof fetch, tokens: memoryTokens() });
    const error = await client.deleteRow('categories', 'c1').catch((failure: unknown) => failure);
    expect(error).toMatchObject({ status: 409, code: 'conflict', references });
  });
});
