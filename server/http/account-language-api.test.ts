import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EDITOR_LANGUAGES } from '../../common/editor-language-rules.js';
import { request } from '../test-support/api-scenario.js';
import { type Credentials, makeTeam, signIn } from '../test-support/team-fixture.js';
import { startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The editor language each person chooses: kept on the account (`PATCH /auth/me`), answered by
 * `GET /auth/me` to every later sign-in, on any machine; tokens and the local user have none.
 */

describe('an account keeps its editor language', () => {
  let server: TestServer;
  let as: Credentials;

  beforeAll(async () => {
    server = await startTestServer();
    as = await makeTeam(server);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  const me = async (headers: Record<string, string>) => (await request(server, 'GET', '/auth/me', { headers })).body;
  const change = (headers: Record<string, string>, json: unknown) =>
    request(server, 'PATCH', '/auth/me', { headers, json });

  it('follows the browser until one is chosen', async () => {
    expect((await me(as.admin)).language).toBeNull();
    expect((await me(as.none)).language).toBeNull();
  });

  it('is set by its person, and a later sign-in (another machine) gets it back', async () => {
    const set = await change(as.viewer, { language: 'de' });
    expect(set.response.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ name: 'vera', language: 'de' });
    expect((await me(as.viewer)).language).toBe('de');
    expect((await me(await signIn(server, 'vera'))).language).toBe('de');
    // Each person their own.
    expect((await me(as.admin)).language).toBeNull();
    const cleared = await change(as.viewer, { language: null });
    expect(cleared.body.language).toBeNull();
    expect((await me(as.viewer)).language).toBeNull();
  });

  it('refuses a language the editor does not speak, naming the ones it does', async () => {
    for (const language of ['xx', 'DE', 'de-AT', 42, true]) {
      const refused = await change(as.author, { language });
      expect(refused.response.status, refused.text).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 'validation_failed',
        problems: { language: { code: 'not_an_option', options: [...EDITOR_LANGUAGES] } },
      });
    }
    expect((await me(as.author)).language).toBeNull();
  });

  it('refuses members it does not know', async () => {
    const refused = await change(as.author, { language: 'fr', theme: 'dark' });
    expect(refused.response.status).toBe(400);
    expect(refused.body.error.code).toBe('bad_request');
    expect((await me(as.author)).language).toBeNull();
  });

  it('belongs to people: a token is refused, no credential is a 401', async () => {
    const token = await change(as.admin_token, { language: 'fr' });
    expect(token.response.status).toBe(403);
    expect(token.body.error.code).toBe('forbidden');
    expect((await me(as.admin_token)).language).toBeNull();
    const nobody = await change(as.none, { language: 'fr' });
    expect(nobody.response.status).toBe(401);
    expect(nobody.body.error.code).toBe('unauthorized');
  });
});

describe('without accounts', () => {
  it('the local user has no language to keep: the editor remembers it on the machine', async () => {
    const server = await startTestServer();
    try {
      expect((await request(server, 'GET', '/auth/me')).body).toMatchObject({ via: 'local', language: null });
      const refused = await request(server, 'PATCH', '/auth/me', { json: { language: 'es' } });
      expect(refused.response.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    } finally {
      await server.dispose();
    }
  });
});
