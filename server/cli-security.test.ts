import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './cli-commands.js';

/** `--allow-host`, `--cors-origin`, `--token`: checked when Quire starts, one line when wrong. */
describe('serve security flags', () => {
  it('default to loopback only: no extra hosts, no CORS origins, no token', () => {
    const options = parseServeArgs([], {});
    expect(options.allowedHosts).toEqual([]);
    expect(options.corsOrigins).toEqual([]);
    expect(options.token).toBeNull();
  });

  it('take repeated --allow-host and --cors-origin, normalized', () => {
    const options = parseServeArgs(
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
    expect(parseServeArgs(['--token', 'a-long-enough-token'], {}).token).toBe('a-long-enough-token');
    expect(parseServeArgs([], { QUIRE_TOKEN: 'token-from-environment' }).token).toBe('token-from-environment');
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
  ];
  for (const [args, message] of mistakes) {
    it(`refuses ${args.join(' ')} with one line`, () => {
      expect(() => parseServeArgs(args, {})).toThrow(UsageError);
      expect(() => parseServeArgs(args, {})).toThrow(message);
    });
  }
});
