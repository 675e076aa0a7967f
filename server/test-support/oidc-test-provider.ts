import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider for tests (the `oidc-provider` package) on a free 127.0.0.1
 * port: one confidential client, PKCE required, and test people whose claims the test sets (and
 * may change between sign-ins, as a rename at the provider). Its development login and consent
 * pages are plain HTML forms; the login form takes a person's id and any password.
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people, by the id typed into the login form: their claims (`sub` is the id). */
  people: Map<string, Record<string, unknown>>;
  /** Registers the client's redirect URI (known once the Quire server listens) and starts answering. */
  register(redirectUri: string): void;
  close(): Promise<void>;
}

/** Starts a provider; it answers once `register` names the client's redirect URI. */
export async function startTestProvider(): Promise<TestProvider> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const server: Server = createServer((req, res) => {
    if (handler) return handler(req, res);
    res.statusCode = 503;
    res.end('not registered yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const people = new Map<string, Record<string, unknown>>();
  const clientId = 'quire-test';
  const clientSecret = 'quire-test-secret-that-is-long-enough-for-hs256';
  return {
    issuer,
    clientId,
    clientSecret,
    people,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            token_endpoint_auth_method: 'client_secret_post',
            grant_types: ['authorization_code'],
            response_types: ['code'],
          },
        ],
        pkce: { required: () => true },
        cookies: { keys: ['quire-test-cookie-key'] },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['preferred_username', 'name', 'groups'],
        },
        features: { devInteractions: { enabled: true } },
        async findAccount(_ctx, id) {
          const claims = people.get(id);
          if (!claims) return undefined;
          return { accountId: id, claims: async () => ({ ...people.get(id), sub: id }) };
        },
      });
      // The provider's warnings about development settings are expected here.
      provider.on('server_error', () => {});
      handler = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's cookies for one host (ports share cookies, as in browsers), with their paths. */
export class CookieJar {
  private readonly cookies = new Map<string, { value: string; path: string }>();

  /** Takes a response's Set-Cookie headers (a Max-Age=0 or past Expires removes the cookie). */
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      let path = '/';
      let gone = false;
      for (const attribute of attributes) {
        const [key, raw = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path') path = raw;
        if (key.toLowerCase() === 'max-age' && Number(raw) <= 0) gone = true;
        if (key.toLowerCase() === 'expires' && Date.parse(raw) < Date.now()) gone = true;
      }
      const key = `${name} ${path}`;
      if (gone) this.cookies.delete(key);
      else this.cookies.set(key, { value, path });
    }
  }

  /** The Cookie header for a URL. */
  header(url: URL): string {
    return [...this.cookies.entries()]
      .filter(([, cookie]) => url.pathname === cookie.path || url.pathname.startsWith(cookie.path.replace(/\/?$/, '/')))
      .map(([key, cookie]) => `${key.split(' ')[0]}=${cookie.value}`)
      .join('; ');
  }

  /** A cookie's value, whatever its path, or undefined. */
  get(name: string): string | undefined {
    return [...this.cookies.entries()].find(([key]) => key.split(' ')[0] === name)?.[1].value;
  }
}

/** One request as a browser makes it: the jar's cookies sent, its answer's cookies kept, no redirect followed. */
export async function browse(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('Cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.take(response);
  return response;
}

/** The form of a provider's page: where it posts and its hidden inputs. */
function formOf(html: string, base: URL): { action: URL; fields: URLSearchParams } | null {
  const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/i.exec(html);
  if (!form) return null;
  const fields = new URLSearchParams();
  for (const input of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) {
    fields.set(input[1], input[2]);
  }
  return { action: new URL(form[1].replace(/&amp;/g, '&'), base), fields };
}

/**
 * Follows a sign-in from `start` as a browser would: redirects with the jar's cookies, and the
 * provider's login form (as `login`) and consent form when they show. Ends at the first answer that
 * is neither a redirect nor a provider form (returned with the URL it came from), or at a redirect
 * to a Quire page outside /api (returned as that redirect), or just before a URL `stopAt` picks
 * (returned without a response, not requested).
 */
export async function followSignIn(
  jar: CookieJar,
  start: URL,
  login: string,
  quireOrigin: string,
  stopAt: (url: URL) => boolean = () => false,
): Promise<{ url: URL; response: Response | null }> {
  let url = start;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step++) {
    if (stopAt(url)) return { url, response: null };
    const response = await browse(jar, url, init);
    init = {};
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url);
      if (next.origin === quireOrigin && !next.pathname.startsWith('/api/')) return { url, response };
      url = next;
      continue;
    }
    const html = await response.text();
    const form = url.origin !== quireOrigin ? formOf(html, url) : null;
    if (!form) return { url, response: new Response(html, { status: response.status }) };
    if (form.fields.get('prompt') === 'login') {
      form.fields.set('login', login);
      form.fields.set('password', 'any password');
    }
    url = form.action;
    init = {
      method: 'POST',
      body: form.fields.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    };
  }
  throw new Error('The sign-in did not end within 20 steps');
}
