import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngImage } from '../test-support/sample-images.js';
import { newsBody } from '../test-support/seed.js';
import { siteState } from '../test-support/site-state.js';
import { type Credentials, makeTeam, TEAM_PASSWORD } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The access scenario table: every credential (none, a bad one, a revoked or expired token,
 * each role by session and by token, a token limited to one type) against every endpoint and
 * method, with the status it must get; every refused request must leave the database as it was.
 */

type Who =
  | 'none'
  | 'bad_token'
  | 'bad_cookie'
  | 'revoked_token'
  | 'expired_token'
  | 'admin'
  | 'editor'
  | 'author'
  | 'viewer'
  | 'admin_token'
  | 'viewer_token'
  | 'news_token';

const WHO: readonly Who[] = [
  'none',
  'bad_token',
  'bad_cookie',
  'revoked_token',
  'expired_token',
  'admin',
  'editor',
  'author',
  'viewer',
  'admin_token',
  'viewer_token',
  'news_token',
];

/** What a credential-less or bad request gets everywhere but the sign-in endpoints. */
const SIGNED_OUT: Partial<Record<Who, number>> = {
  none: 401,
  bad_token: 401,
  bad_cookie: 401,
  revoked_token: 401,
  expired_token: 401,
};

/** Statuses by role: `read` for everyone signed in, `rows` for those who write rows, `admins`... */
const everyone = (status: number): Partial<Record<Who, number>> => ({
  ...SIGNED_OUT,
  admin: status,
  editor: status,
  author: status,
  viewer: status,
  admin_token: status,
  viewer_token: status,
  news_token: status,
});
const only = (status: number, allowed: readonly Who[]): Partial<Record<Who, number>> => {
  const result = everyone(403);
  for (const who of allowed) result[who] = status;
  return result;
};
const CREATORS: Who[] = ['admin', 'editor', 'author', 'admin_token', 'news_token'];
const CHANGERS: Who[] = ['admin', 'editor', 'admin_token', 'news_token'];
const ADMINS: Who[] = ['admin', 'admin_token'];

interface Context {
  server: TestServer;
  as: Credentials;
  /** A news row ada (admin) created. */
  adaRow: string;
}

/** One endpoint and method: the request for a caller, and each caller's status. */
interface Operation {
  name: string;
  method: string;
  /** The path under /api, and the body (JSON, or a FormData for uploads); may create what it needs first. */
  make: (ctx: Context, who: Who) => Promise<{ path: string; json?: unknown; form?: FormData }>;
  expected: Partial<Record<Who, number>>;
}

let serial = 0;
const unique = (base: string) => `${base}${++serial}`;

/** A news row made by `who` when it may create rows, else by ada. */
async function rowBy(ctx: Context, who: Who): Promise<string> {
  const by = CREATORS.includes(who) ? ctx.as[who] : ctx.as.admin;
  const { body, response } = await send(ctx.server, 'POST', '/cms/news', by, {
    json: newsBody({ title: unique('row ') }),
  });
  expect(response.status).toBe(201);
  return body.id;
}

const OPERATIONS: Operation[] = [
  { name: 'list news', method: 'GET', make: async () => ({ path: '/cms/news' }), expected: everyone(200) },
  {
    name: 'list categories (another type)',
    method: 'GET',
    make: async () => ({ path: '/cms/categories' }),
    expected: { ...everyone(200), news_token: 403 },
  },
  {
    name: 'read a row',
    method: 'GET',
    make: async (c) => ({ path: `/cms/news/${c.adaRow}` }),
    expected: everyone(200),
  },
  {
    name: 'create a news row',
    method: 'POST',
    make: async () => ({ path: '/cms/news', json: newsBody({ title: unique('new ') }) }),
    expected: only(201, CREATORS),
  },
  {
    name: 'create a category (outside the news token)',
    method: 'POST',
    make: async () => ({ path: '/cms/categories', json: { title: unique('category ') } }),
    expected: { ...only(201, CREATORS), news_token: 403 },
  },
  {
    name: 'change a row someone else created',
    method: 'PUT',
    make: async (c) => ({ path: `/cms/news/${c.adaRow}`, json: { title: unique('changed ') } }),
    expected: only(200, CHANGERS),
  },
  {
    name: 'change a row the caller created',
    method: 'PATCH',
    make: async (c, who) => ({ path: `/cms/news/${await rowBy(c, who)}`, json: { title: unique('mine ') } }),
    expected: only(200, CREATORS),
  },
  {
    name: 'delete a row someone else created',
    method: 'DELETE',
    make: async (c) => ({ path: `/cms/news/${await rowBy(c, 'admin')}` }),
    expected: only(200, CHANGERS),
  },
  {
    name: 'delete a row the caller created',
    method: 'DELETE',
    make: async (c, who) => ({ path: `/cms/news/${await rowBy(c, who)}` }),
    expected: only(200, CREATORS),
  },
  { name: 'list content types', method: 'GET', make: async () => ({ path: '/cms-content' }), expected: everyone(200) },
  {
    name: 'read a content type',
    method: 'GET',
    make: async () => ({ path: '/cms-content/categories' }),
    expected: { ...everyone(200), news_token: 403 },
  },
  {
    name: 'create a content type',
    method: 'POST',
    make: async () => ({
      path: '/cms-content',
      json: { title: unique('Type '), columns: [{ name: 'title', label: 'Title', type: 'text', required: true }] },
    }),
    expected: only(201, ADMINS),
  },
  {
    name: 'change a content type',
    method: 'PUT',
    make: async () => ({ path: '/cms-content/categories', json: { title: unique('Categories ') } }),
    expected: only(200, ADMINS),
  },
  {
    name: 'delete a content type',
    method: 'DELETE',
    make: async (c) => {
      const title = unique('Doomed ');
      const made = await send(c.server, 'POST', '/cms-content', c.as.admin_token, {
        json: { title, columns: [{ name: 'title', label: 'Title', type: 'text', required: true }] },
      });
      expect(made.response.status, made.text).toBe(201);
      return { path: `/cms-content/${made.body.slug}` };
    },
    expected: only(200, ADMINS),
  },
  {
    name: 'upload an image',
    method: 'POST',
    make: async () => {
      const form = new FormData();
      form.append('file', new Blob([pngImage()], { type: 'image/png' }), 'pixel.png');
      // A file of its own each time (the same bytes would give back the asset they already are).
      return { path: '/uploads?duplicate=true', form };
    },
    expected: only(201, CREATORS),
  },
  { name: 'count unused media', method: 'GET', make: async () => ({ path: '/media/unused' }), expected: everyone(200) },
  { name: 'list accounts', method: 'GET', make: async () => ({ path: '/accounts' }), expected: only(200, ADMINS) },
  {
    name: 'read an account',
    method: 'GET',
    make: async () => ({ path: '/accounts/vera' }),
    expected: only(200, ADMINS),
  },
  {
    name: 'add an account',
    method: 'POST',
    make: async () => ({
      path: '/accounts',
      json: { name: unique('new-person'), role: 'viewer', password: TEAM_PASSWORD },
    }),
    expected: only(201, ADMINS),
  },
  {
    name: "change an account's role",
    method: 'PATCH',
    make: async (c) => {
      const name = unique('promoted');
      const made = await send(c.server, 'POST', '/accounts', c.as.admin_token, {
        json: { name, role: 'viewer', password: TEAM_PASSWORD },
      });
      expect(made.response.status, made.text).toBe(201);
      return { path: `/accounts/${name}`, json: { role: 'editor' } };
    },
    expected: only(200, ADMINS),
  },
  { name: 'list tokens', method: 'GET', make: async () => ({ path: '/tokens' }), expected: only(200, ADMINS) },
  {
    name: 'add a token',
    method: 'POST',
    make: async () => ({ path: '/tokens', json: { name: unique('script'), role: 'viewer' } }),
    expected: only(201, ADMINS),
  },
  {
    name: 'revoke a token',
    method: 'DELETE',
    make: async (c) => {
      const name = unique('doomed-token');
      const made = await send(c.server, 'POST', '/tokens', c.as.admin_token, { json: { name, role: 'viewer' } });
      expect(made.response.status, made.text).toBe(201);
      return { path: `/tokens/${name}` };
    },
    expected: only(200, ADMINS),
  },
  {
    name: 'who am I',
    method: 'GET',
    make: async () => ({ path: '/auth/me' }),
    // No or an ended session is an answer ("not signed in"); a token that is not valid is a 401.
    expected: { ...everyone(200), none: 200, bad_cookie: 200 },
  },
];

/** Sends a request with a credential's headers. */
async function send(
  server: TestServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: { json?: unknown; form?: FormData } = {},
): Promise<{ response: Response; text: string; body: any }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body.json !== undefined) {
    init.headers = { ...headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(body.json);
  } else if (body.form) {
    init.body = body.form;
  }
  const response = await fetch(`${server.api}${path}`, init);
  const text = await response.text();
  return { response, text, body: text ? JSON.parse(text) : null };
}

describe('accounts and roles: every credential against every endpoint', () => {
  const ctx = {} as Context;

  beforeAll(async () => {
    ctx.server = await startTestServer();
    ctx.as = await makeTeam(ctx.server);
    ctx.adaRow = await rowBy(ctx, 'admin');
  }, 60_000);
  afterAll(async () => {
    await ctx.server?.dispose();
  });

  for (const operation of OPERATIONS) {
    for (const who of WHO) {
      const status = operation.expected[who];
      if (status === undefined) throw new Error(`${operation.name}: no status for ${who}`);
      it(`${operation.method} ${operation.name} as ${who}: ${status}`, async () => {
        const { path, json, form } = await operation.make(ctx, who);
        const before = status >= 400 ? await siteState(ctx.server, ['news', 'categories']) : null;
        const { response, text, body } = await send(ctx.server, operation.method, path, ctx.as[who], { json, form });
        expect(response.status, text).toBe(status);
        if (status === 401) {
          expect(body.error.code).toBe('unauthorized');
          expect(response.headers.get('www-authenticate')).toContain('Bearer');
        }
        if (status === 403) expect(body.error.code).toBe('forbidden');
        if (before !== null) expect(await siteState(ctx.server, ['news', 'categories'])).toEqual(before);
        expect(text).not.toMatch(/password_hash|token_hash|scrypt\$/);
      });
    }
  }

  it('records who created and changed a row: the account or the token, never --editor', async () => {
    const created = await send(ctx.server, 'POST', '/cms/news', ctx.as.author, {
      json: newsBody({ title: 'By Aldo' }),
    });
    expect(created.body.rows[0]).toMatchObject({ created_by: 'aldo', updated_by: 'aldo' });
    const changed = await send(ctx.server, 'PUT', `/cms/news/${created.body.id}`, ctx.as.news_token, {
      json: { title: 'Edited by the bot' },
    });
    expect(changed.body).toMatchObject({ created_by: 'aldo', updated_by: 'news-bot' });
    // The author still owns it (created_by), so may change it again after the bot did.
    const again = await send(ctx.server, 'PUT', `/cms/news/${created.body.id}`, ctx.as.author, {
      json: { title: 'Mine' },
    });
    expect(again.response.status).toBe(200);
    expect(again.body.updated_by).toBe('aldo');
    // Another author may not.
    const other = await send(
      ctx.server,
      'POST',
      '/auth/sign-in',
      {},
      { json: { name: 'anna', password: TEAM_PASSWORD } },
    );
    const cookie = /quire_session=[^;]*/.exec(other.response.headers.get('set-cookie') ?? '')?.[0] ?? '';
    const refused = await send(ctx.server, 'DELETE', `/cms/news/${created.body.id}`, {
      cookie,
      origin: ctx.server.origin,
    });
    expect(refused.response.status).toBe(403);
  });

  it('tells each caller what it may do', async () => {
    const author = await send(ctx.server, 'GET', '/auth/me', ctx.as.author);
    expect(author.body).toMatchObject({
      signed_in: true,
      via: 'session',
      name: 'aldo',
      role: 'author',
      accounts_exist: true,
      first_run: false,
    });
    expect(author.body.can).toMatchObject({ create_rows: true, change_any_row: false, change_own_rows: true });
    const bot = await send(ctx.server, 'GET', '/auth/me', ctx.as.news_token);
    expect(bot.body).toMatchObject({ via: 'token', name: 'news-bot', role: 'editor', content_types: ['news'] });
    const nobody = await send(ctx.server, 'GET', '/auth/me', {});
    expect(nobody.body).toMatchObject({ signed_in: false, name: null, accounts_exist: true });
  });
});
