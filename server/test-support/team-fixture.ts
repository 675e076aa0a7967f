import { sql } from 'kysely';
import { expect } from 'vitest';
import { TOKENS_TABLE } from '../db/repositories/account-repository.js';
import { request } from './api-scenario.js';
import type { TestServer } from './test-server.js';

/** A password long enough for the rules, shared by the test team. */
export const TEAM_PASSWORD = 'correct horse battery staple';

/** The credentials of a team's members: request headers that carry each. */
export type Credentials = Record<string, Record<string, string>>;

/** The session cookie in a response (`quire_session=...`), or null. */
export function sessionCookie(response: Response): string | null {
  const header = response.headers.get('set-cookie');
  const match = header ? /quire_session=([^;]*)/.exec(header) : null;
  return match?.[1] ? `quire_session=${match[1]}` : null;
}

/** Headers of a signed-in browser tab of the server's own editor. */
export function sessionHeaders(server: TestServer, cookie: string): Record<string, string> {
  return { cookie, origin: server.origin, 'sec-fetch-site': 'same-origin' };
}

/** Signs in and returns the session's headers. */
export async function signIn(
  server: TestServer,
  name: string,
  password = TEAM_PASSWORD,
): Promise<Record<string, string>> {
  const { response, text } = await request(server, 'POST', '/auth/sign-in', { json: { name, password } });
  expect(response.status, text).toBe(200);
  const cookie = sessionCookie(response);
  if (!cookie) throw new Error('sign-in set no cookie');
  return sessionHeaders(server, cookie);
}

/**
 * A team on a fresh server: `ada` (admin, made by first run), `edna` (editor), `aldo` and `anna`
 * (authors), `vera` (viewer); tokens `ci` (admin), `build` (viewer), `news-bot` (editor, news
 * only), `old` (revoked), `stale` (expired). Returns each member's headers, plus `none`, a bad
 * token and a bad cookie.
 */
export async function makeTeam(server: TestServer): Promise<Credentials> {
  const first = await request(server, 'POST', '/auth/first-run', { json: { name: 'ada', password: TEAM_PASSWORD } });
  expect(first.response.status, first.text).toBe(201);
  const admin = sessionHeaders(server, sessionCookie(first.response) as string);
  const add = async (path: string, json: Record<string, unknown>) => {
    const { response, body, text } = await request(server, 'POST', path, { json, headers: admin });
    expect(response.status, text).toBe(201);
    return body;
  };
  for (const [name, role] of [
    ['edna', 'editor'],
    ['aldo', 'author'],
    ['anna', 'author'],
    ['vera', 'viewer'],
  ]) {
    await add('/accounts', { name, role, password: TEAM_PASSWORD });
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const ci = await add('/tokens', { name: 'ci', role: 'admin' });
  const build = await add('/tokens', { name: 'build', role: 'viewer' });
  const newsBot = await add('/tokens', { name: 'news-bot', role: 'editor', content_types: ['news'] });
  const old = await add('/tokens', { name: 'old', role: 'admin' });
  const revoked = await request(server, 'DELETE', '/tokens/old', { headers: admin });
  expect(revoked.response.status, revoked.text).toBe(200);
  const stale = await add('/tokens', { name: 'stale', role: 'admin', expires_days: 1 });
  // Expired yesterday: written past the API, which only makes tokens that expire in the future.
  await sql`update ${sql.table(TOKENS_TABLE)} set expires_at = ${new Date(Date.now() - 86_400_000).toISOString()} where name = 'stale'`.execute(
    server.database.db,
  );
  return {
    none: {},
    bad_token: bearer('quire_this-token-was-never-made-by-this-server-000'),
    bad_cookie: { ...sessionHeaders(server, 'quire_session=this-session-was-never-started-0000') },
    revoked_token: bearer(old.token),
    expired_token: bearer(stale.token),
    admin: admin,
    editor: await signIn(server, 'edna'),
    author: await signIn(server, 'aldo'),
    viewer: await signIn(server, 'vera'),
    admin_token: bearer(ci.token),
    viewer_token: bearer(build.token),
    news_token: bearer(newsBot.token),
  };
}
