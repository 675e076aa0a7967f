import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { request } from '../test-support/api-scenario.js';
import { openApiProblems, ResponseChecker } from '../test-support/openapi-responses.js';
import { type Credentials, makeTeam } from '../test-support/team-fixture.js';
import { reopenOptions, startTestServer, type TestServer } from '../test-support/test-server.js';

/**
 * The site's languages (`GET`/`PUT /api/locales`): English alone until set; replaced whole by
 * admins, checked (400 naming each problem), under If-Match, recorded in the audit log, kept
 * across a restart.
 */

const ISSUE_EXAMPLE = {
  default: 'en',
  locales: [
    { code: 'en', label: 'English' },
    { code: 'de', label: 'Deutsch', fallback: ['en'] },
    { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
  ],
};

describe('a site without accounts', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  const put = (json: unknown, headers: Record<string, string> = {}, query = '') =>
    request(server, 'PUT', `/locales${query}`, { json, headers });

  it('has English alone before any locale is set, with an ETag', async () => {
    const read = await request(server, 'GET', '/locales');
    expect(read.response.status).toBe(200);
    expect(read.body).toEqual(DEFAULT_LOCALES);
    expect(read.body).toEqual({ default: 'en', locales: [{ code: 'en', label: 'English' }] });
    expect(read.response.headers.get('etag')).toMatch(/^"/);
  });

  it('takes a valid document, keeping codes in canonical case, and answers it as GET does', async () => {
    const sent = {
      default: 'en',
      locales: [
        { code: 'en', label: 'English', fallback: [] },
        { code: 'DE', label: 'Deutsch', fallback: ['en'] },
        { code: 'de-at', label: ' Deutsch (Österreich) ', fallback: ['de', 'EN'] },
      ],
    };
    const written = await put(sent);
    expect(written.response.status, written.text).toBe(200);
    expect(written.body).toEqual(ISSUE_EXAMPLE);
    const read = await request(server, 'GET', '/locales');
    expect(read.body).toEqual(ISSUE_EXAMPLE);
    expect(written.response.headers.get('etag')).toBe(read.response.headers.get('etag'));
    const notChanged = await request(server, 'GET', '/locales', {
      headers: { 'if-none-match': read.response.headers.get('etag') as string },
    });
    expect(notChanged.response.status).toBe(304);
  });

  it('refuses an invalid document with a 400 naming each problem, and changes nothing', async () => {
    const before = (await request(server, 'GET', '/locales')).body;
    const refused = await put({
      default: 'fr',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de_AT', label: 'Österreich' },
        { code: 'de', label: '', fallback: ['de'] },
        { code: 'es', label: 'Español', fallback: ['pt'] },
      ],
    });
    expect(refused.response.status, refused.text).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: 'validation_failed',
      problems: {
        default: { code: 'not_an_option', options: ['en', 'de', 'es'] },
        'locales[1].code': { code: 'not_a_locale_code' },
        'locales[2].label': { code: 'not_a_label', max: 100 },
        'locales[2].fallback': { code: 'falls_back_to_itself' },
        'locales[3].fallback': { code: 'not_an_option', options: ['en', 'de', 'es'] },
      },
      fields: { 'locales[1].code': 'must be a BCP 47 language tag, such as en, de or de-AT' },
    });
    const loop = await put({
      default: 'en',
      locales: [
        { code: 'en', label: 'English' },
        { code: 'de', label: 'Deutsch', fallback: ['de-AT'] },
        { code: 'de-AT', label: 'Österreich', fallback: ['de'] },
      ],
    });
    expect(loop.response.status).toBe(400);
    expect(loop.body.error.problems).toEqual({
      'locales[1].fallback': { code: 'fallback_loop', locales: ['de', 'de-AT', 'de'] },
    });
    for (const body of [[], 'en', { default: 'en', locales: ISSUE_EXAMPLE.locales, colour: 'red' }]) {
      const bad = await put(body);
      expect(bad.response.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe('bad_request');
    }
    expect((await request(server, 'GET', '/locales')).body).toEqual(before);
  });

  it('takes If-Match: the current ETag writes, a stale one is a 412 with the locales as they are', async () => {
    const read = await request(server, 'GET', '/locales');
    const etag = read.response.headers.get('etag') as string;
    const changed = { ...ISSUE_EXAMPLE, locales: [...ISSUE_EXAMPLE.locales, { code: 'fr', label: 'Français' }] };
    const first = await put(changed, { 'if-match': etag });
    expect(first.response.status, first.text).toBe(200);
    const stale = await put(ISSUE_EXAMPLE, { 'if-match': etag });
    expect(stale.response.status).toBe(412);
    expect(stale.body.error).toMatchObject({
      code: 'stale_write',
      current: changed,
      etag: first.response.headers.get('etag'),
      last_change: { action: 'update', by: 'tester', fields: ['locales'] },
    });
    expect((await put(ISSUE_EXAMPLE, { 'if-match': 'not a tag' })).response.status).toBe(400);
    expect((await request(server, 'GET', '/locales')).body).toEqual(changed);
    const star = await put(ISSUE_EXAMPLE, { 'if-match': '*' });
    expect(star.response.status).toBe(200);
  });

  it('removes a locale that holds no values without force (no column is localized yet); force is a flag', async () => {
    const added = await put({
      ...ISSUE_EXAMPLE,
      locales: [...ISSUE_EXAMPLE.locales, { code: 'fr', label: 'Français' }],
    });
    expect(added.response.status).toBe(200);
    const removed = await put(ISSUE_EXAMPLE);
    expect(removed.response.status, removed.text).toBe(200);
    expect(removed.body).toEqual(ISSUE_EXAMPLE);
    expect((await put(ISSUE_EXAMPLE, {}, '?force=true')).response.status).toBe(200);
    for (const query of ['?force=maybe', '?locale=de']) {
      const refused = await put(ISSUE_EXAMPLE, {}, query);
      expect(refused.response.status, query).toBe(400);
      expect(refused.body.error.code).toBe('bad_request');
    }
  });

  it('answers other methods with a 405', async () => {
    const deleted = await request(server, 'DELETE', '/locales');
    expect(deleted.response.status).toBe(405);
    expect(deleted.response.headers.get('allow')).toBe('GET, PUT, HEAD, OPTIONS');
  });

  it('answers as the OpenAPI document describes', async () => {
    const document = (await request(server, 'GET', '/openapi.json')).body as OpenApiDocument;
    expect(await openApiProblems(document)).toEqual([]);
    const checker = new ResponseChecker(document);
    const read = await request(server, 'GET', '/locales');
    const etag = read.response.headers.get('etag') as string;
    const answers = [
      ['GET', read],
      ['PUT', await put(DEFAULT_LOCALES, { 'if-match': etag })],
      ['PUT', await put(ISSUE_EXAMPLE, { 'if-match': etag })],
      ['PUT', await put({ default: 'xx', locales: [] })],
      ['PUT', await put(ISSUE_EXAMPLE, {}, '?force=maybe')],
    ] as const;
    expect(answers.map(([, answer]) => answer.response.status)).toEqual([200, 200, 412, 400, 400]);
    for (const [method, answer] of answers) {
      expect(checker.problems(method, '/locales', answer.response.status, answer.body)).toEqual([]);
    }
    expect(checker.matches('LocalesDocument', ISSUE_EXAMPLE)).toEqual([]);
    expect((await put(ISSUE_EXAMPLE)).response.status).toBe(200);
  });

  it('keeps the locales across a restart', async () => {
    await server.stop();
    server = await startTestServer(reopenOptions(server));
    expect((await request(server, 'GET', '/locales')).body).toEqual(ISSUE_EXAMPLE);
  }, 60_000);
});

describe('who may read and change the locales', () => {
  let server: TestServer;
  let as: Credentials;

  beforeAll(async () => {
    server = await startTestServer();
    as = await makeTeam(server);
  }, 60_000);
  afterAll(async () => {
    await server?.dispose();
  });

  it('everyone who may read content reads them; no credential is a 401', async () => {
    for (const who of ['admin', 'editor', 'author', 'viewer', 'admin_token', 'viewer_token']) {
      const read = await request(server, 'GET', '/locales', { headers: as[who] });
      expect(read.response.status, who).toBe(200);
      expect(read.body, who).toEqual(DEFAULT_LOCALES);
    }
    expect((await request(server, 'GET', '/locales', { headers: as.none })).response.status).toBe(401);
  });

  it('admins change them; others get a 403 and nothing changes', async () => {
    for (const who of ['editor', 'author', 'viewer', 'viewer_token']) {
      const refused = await request(server, 'PUT', '/locales', { json: ISSUE_EXAMPLE, headers: as[who] });
      expect(refused.response.status, who).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
    }
    expect((await request(server, 'GET', '/locales', { headers: as.viewer })).body).toEqual(DEFAULT_LOCALES);
    const byToken = await request(server, 'PUT', '/locales', { json: ISSUE_EXAMPLE, headers: as.admin_token });
    expect(byToken.response.status, byToken.text).toBe(200);
    const bySession = await request(server, 'PUT', '/locales', { json: DEFAULT_LOCALES, headers: as.admin });
    expect(bySession.response.status, bySession.text).toBe(200);
  });

  it('records each change in the audit log: who, the locales and the ones removed', async () => {
    const audit = await request(server, 'GET', '/audit?action=locales.changed', { headers: as.admin });
    expect(audit.response.status, audit.text).toBe(200);
    expect(audit.body.events.map((event: { actor: string; detail: unknown }) => [event.actor, event.detail])).toEqual([
      ['ada', { default: 'en', locales: ['en'], removed: ['de', 'de-AT'], forced: false }],
      ['ci', { default: 'en', locales: ['en', 'de', 'de-AT'], removed: [], forced: false }],
    ]);
  });
});
