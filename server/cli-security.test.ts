import { describe, expect, it } from 'vitest';
import { readQuireConfig, UsageError } from './config/quire-config.js';

/** `--allow-host`, `--cors-origin`, `--token`, `--trust-proxy`: checked when Quire starts, one line when wrong. */
describe('serve security flags', () => {
  it('default to loopback only: no extra hosts, no CORS origins, no token', () => {
    const options = readQuireConfig([], {});
    expect(options.allowedHosts).toEqual([]);
    expect(options.corsOrigins).toEqual([]);
    expect(options.token).toBeNull();
    expect(options.trustProxy).toEqual([]);
  });

  it('take the trusted proxies from --trust-proxy or QUIRE_TRUST_PROXY', () => {
    expect(readQuireConfig(['--trust-proxy', 'loopback, 10.0.0.0/8,fd00::/8'], {}).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::/8',
    ]);
    expect(readQuireConfig([], { QUIRE_TRUST_PROXY: '192.0.2.10' }).trustProxy).toEqual(['192.0.2.10']);
  });

  it('take repeated --allow-host and --cors-origin, normalized', () => {
    const options = readQuireConfig(
      [
        '--allow-host',
        'Quire.LAN',
        '--allow-host',
        '::1',
        '--cors-origin',
        'http://localhost:3000/',
        '--cors-origin',
        'https://site.example',
      ],
      {},
    );
    expect(options.allowedHosts).toEqual(['quire.lan', '[::1]']);
    expect(options.corsOrigins).toEqual(['http://localhost:3000', 'https://site.example']);
  });

  it('take the token from --token or QUIRE_TOKEN', () => {
    expect(readQuireConfig(['--token', 'a-long-enough-token'], {}).token).toBe('a-long-enough-token');
    expect(readQuireConfig([], { QUIRE_TOKEN: 'token-from-environment' }).token).toBe('token-from-environment');
  });

  const mistakes: [string[], RegExp][] = [
    [
      ['--allow-host', 'http://quire.lan'],
      /^--allow-host "http:\/\/quire\.lan": give a host name without scheme or port$/,
    ],
    [['--allow-host', 'quire.lan:8080'], /--allow-host/],
    [['--cors-origin', '*'], /^--cors-origin "\*" is not an origin/],
    [['--cors-origin', 'null'], /--cors-origin/],
    [['--cors-origin', 'http://site.example/path'], /must be an origin only/],
    [['--token', 'short'], /^--token: the token must be at least 16 characters$/],
    [['--trust-proxy', 'proxy.lan'], /^--trust-proxy "proxy.lan": invalid IP address: proxy.lan; give proxy addresses/],
    [['--trust-proxy', '10.0.0.0/40'], /^--trust-proxy "10.0.0.0\/40": invalid range on address/],
    [['--trust-proxy', ' , '], /^--trust-proxy " , ": give proxy addresses, CIDR ranges/],
  ];
  for (const [args, message] of mistakes) {
    it(`refuses ${args.join(' ')} with one line`, () => {
      expect(() => readQuireConfig(args, {})).toThrow(UsageError);
      expect(() => readQuireConfig(args, {})).toThrow(message);
    });
  }
});
