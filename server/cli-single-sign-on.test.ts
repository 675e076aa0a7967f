import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { commandHelp } from './cli/command-help.js';
import { quireCommands } from './cli/command-list.js';
import { readQuireConfig, SERVE_OPTIONS, UsageError } from './config/quire-config.js';
import { type ChildServer, spawnServer } from './test-support/child-server.js';
import {
  browse,
  CookieJar,
  followSignIn,
  startTestProvider,
  type TestProvider,
} from './test-support/oidc-test-provider.js';

/** `quire serve`'s sign-in flags: single sign-on, password sign-in, the public URL; checked at start. */
describe('quire serve sign-in flags', () => {
  const ISSUER = 'https://id.example.com/realms/team';

  it('are off by default: passwords sign in, no provider, the request’s own origin', () => {
    const options = readQuireConfig([], {});
    expect(options.singleSignOn).toBeNull();
    expect(options.passwordSignIn).toBe(true);
    expect(options.publicUrl).toBeNull();
  });

  it('configure the provider from flags, the secret only from QUIRE_OIDC_CLIENT_SECRET', () => {
    const options = readQuireConfig(
      [
        '--oidc-issuer',
        ISSUER,
        '--oidc-client-id',
        'quire',
        '--oidc-role',
        'admin:groups=quire-admins',
        '--oidc-role',
        'editor:email_domain=example.com',
        '--oidc-invited-only',
        '--no-password-sign-in',
        '--public-url',
        'https://cms.example.org/',
      ],
      { QUIRE_OIDC_CLIENT_SECRET: 's3cret' },
    );
    expect(options.singleSignOn).toEqual({
      issuer: ISSUER,
      clientId: 'quire',
      clientSecret: 's3cret',
      roles: [
        { role: 'admin', claim: 'groups', value: 'quire-admins' },
        { role: 'editor', claim: 'email_domain', value: 'example.com' },
      ],
      name: 'id.example.com',
      invitedOnly: true,
    });
    expect(options.passwordSignIn).toBe(false);
    expect(options.publicUrl).toBe('https://cms.example.org');
    expect(Object.keys(SERVE_OPTIONS)).not.toContain('oidc-client-secret');
  });

  it('configure the provider from variables (rules separated by ;)', () => {
    const options = readQuireConfig([], {
      QUIRE_OIDC_ISSUER: ISSUER,
      QUIRE_OIDC_CLIENT_ID: 'quire',
      QUIRE_OIDC_ROLES: 'admin:groups=Quire Admins; viewer:*',
      QUIRE_OIDC_NAME: 'Team ID',
      QUIRE_PUBLIC_URL: 'https://cms.example.org',
    });
    expect(options.singleSignOn).toMatchObject({
      clientSecret: null,
      name: 'Team ID',
      roles: [
        { role: 'admin', claim: 'groups', value: 'Quire Admins' },
        { role: 'viewer', claim: null, value: '' },
      ],
    });
    expect(options.publicUrl).toBe('https://cms.example.org');
  });

  it.each([
    [['--oidc-issuer', ISSUER, '--oidc-role', 'viewer:*'], /^--oidc-issuer needs --oidc-client-id/],
    [['--oidc-issuer', ISSUER, '--oidc-client-id', 'q'], /^--oidc-issuer needs at least one --oidc-role/],
    [
      ['--oidc-issuer', ISSUER, '--oidc-client-id', 'q', '--oidc-role', 'boss:*'],
      /^--oidc-role "boss:\*" starts with no role/,
    ],
    [
      ['--oidc-issuer', ISSUER, '--oidc-client-id', 'q', '--oidc-role', 'admin:groups'],
      /is not ROLE:CLAIM=VALUE or ROLE:\*/,
    ],
    [
      ['--oidc-issuer', 'http://id.example.com', '--oidc-client-id', 'q', '--oidc-role', 'viewer:*'],
      /must be an https:\/\/ URL/,
    ],
    [['--oidc-issuer', 'id.example.com', '--oidc-client-id', 'q', '--oidc-role', 'viewer:*'], /is not a URL/],
    [['--oidc-role', 'viewer:*'], /need --oidc-issuer URL/],
    [
      ['--public-url', 'https://cms.example.org/quire'],
      /^--public-url "https:\/\/cms.example.org\/quire" must be an origin only/,
    ],
    [['--public-url', 'cms.example.org'], /must be an origin only/],
  ])('refuse %j in one line', (args, message) => {
    expect(() => readQuireConfig(args, {})).toThrow(UsageError);
    expect(() => readQuireConfig(args, {})).toThrow(message);
  });

  it('accept plain http only for a provider on this machine', () => {
    const options = readQuireConfig(
      ['--oidc-issuer', 'http://127.0.0.1:9000', '--oidc-client-id', 'q', '--oidc-role', 'viewer:*'],
      {},
    );
    expect(options.singleSignOn?.issuer).toBe('http://127.0.0.1:9000');
  });

  it('are in quire help serve', () => {
    const serve = quireCommands(SERVE_OPTIONS).find((entry) => entry.name === 'serve');
    const help = commandHelp(serve as NonNullable<typeof serve>);
    for (const flag of [
      '--oidc-issuer URL',
      '--oidc-client-id ID',
      '--oidc-role RULE',
      '--oidc-name NAME',
      '--oidc-invited-only',
      '--no-password-sign-in',
      '--public-url URL',
    ]) {
      expect(help).toContain(flag);
    }
    expect(help).toContain('QUIRE_OIDC_CLIENT_SECRET');
  });
});

describe('quire serve with single sign-on', () => {
  let server: ChildServer | null = null;
  let provider: TestProvider | null = null;
  let dir: string | null = null;
  afterEach(async () => {
    await server?.kill('SIGTERM');
    await provider?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    server = provider = dir = null;
  });

  it('signs in through the provider its flags name, with the secret from the environment and passwords off', async () => {
    provider = await startTestProvider();
    provider.people.set('p-ada', { preferred_username: 'ada', email: 'ada@example.com', email_verified: true });
    dir = mkdtempSync(join(tmpdir(), 'quire-sso-cli-'));
    process.env.QUIRE_OIDC_CLIENT_SECRET = provider.clientSecret;
    try {
      server = await spawnServer(
        join(dir, 'content.sqlite'),
        [
          '--no-backups',
          '--oidc-issuer',
          provider.issuer,
          '--oidc-client-id',
          provider.clientId,
          '--oidc-role',
          'editor:email_domain=example.com',
          '--oidc-name',
          'Team ID',
          '--no-password-sign-in',
        ],
        'built',
      );
    } finally {
      delete process.env.QUIRE_OIDC_CLIENT_SECRET;
    }
    provider.register(`${server.origin}/api/auth/oidc/callback`);
    const providers = await (await fetch(`${server.api}/auth/providers`)).json();
    expect(providers).toEqual({
      password: false,
      single_sign_on: { name: 'Team ID', start_url: '/api/auth/oidc/start' },
    });
    const jar = new CookieJar();
    const { response } = await followSignIn(
      jar,
      new URL('/api/auth/oidc/start', server.origin),
      'p-ada',
      server.origin,
    );
    expect(response?.headers.get('location')).toBe('/');
    const me = await (await browse(jar, new URL('/api/auth/me', server.origin))).json();
    expect(me).toMatchObject({ signed_in: true, via: 'session', name: 'ada', role: 'editor' });
    const refused = await fetch(`${server.api}/auth/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'ada', password: 'whatever-it-is' }),
    });
    expect(refused.status).toBe(403);
    expect(server.stderr()).not.toMatch(/Error|at /);
  });
});
