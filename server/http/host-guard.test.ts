import { describe, expect, it } from 'vitest';
import {
  isLoopbackHostname,
  isLoopbackListenAddress,
  listenHostnames,
  normalizeHostname,
  parseHostHeader,
} from './host-guard.js';

describe('parseHostHeader', () => {
  const cases: [string, ReturnType<typeof parseHostHeader>][] = [
    ['127.0.0.1', { hostname: '127.0.0.1', port: null }],
    ['127.0.0.1:4780', { hostname: '127.0.0.1', port: 4780 }],
    ['LocalHost:80', { hostname: 'localhost', port: 80 }],
    ['localhost.:4780', { hostname: 'localhost', port: 4780 }],
    ['[::1]:4780', { hostname: '[::1]', port: 4780 }],
    ['[::1]', { hostname: '[::1]', port: null }],
    ['quire.example', { hostname: 'quire.example', port: null }],
    ['', null],
    ['::1', null],
    ['[::1', null],
    ['[zz::1]:80', null],
    ['host:99999', null],
    ['host:', null],
    ['host:80:80', null],
    ['a b', null],
    ['evil.com/x', null],
    ['user@host', null],
    ['-bad.example', null],
  ];
  for (const [value, expected] of cases) {
    it(`reads ${JSON.stringify(value)} as ${JSON.stringify(expected)}`, () => {
      expect(parseHostHeader(value)).toEqual(expected);
    });
  }
});

describe('loopback names', () => {
  it('counts localhost, 127.0.0.0/8 and [::1] as loopback', () => {
    for (const name of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]']) expect(isLoopbackHostname(name)).toBe(true);
  });
  it('does not count other names and addresses, or lookalikes, as loopback', () => {
    for (const name of ['127.0.0.1.evil.com', 'localhost.evil.com', '0.0.0.0', '10.0.0.1', '[::]', 'evil.localhost']) {
      expect(isLoopbackHostname(name)).toBe(false);
    }
  });
  it('tells loopback listen addresses from ones reachable by other machines', () => {
    expect(isLoopbackListenAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackListenAddress('::1')).toBe(true);
    expect(isLoopbackListenAddress('localhost')).toBe(true);
    expect(isLoopbackListenAddress('0.0.0.0')).toBe(false);
    expect(isLoopbackListenAddress('::')).toBe(false);
    expect(isLoopbackListenAddress('192.168.1.20')).toBe(false);
  });
});

describe('listenHostnames', () => {
  const interfaces = {
    lo: [{ address: '127.0.0.1', family: 'IPv4', scopeid: undefined }],
    eth0: [
      { address: '192.168.1.20', family: 'IPv4' },
      { address: 'fe80::1', family: 'IPv6', scopeid: 2 },
      { address: '2001:db8::5', family: 'IPv6', scopeid: 0 },
    ],
  } as unknown as Parameters<typeof listenHostnames>[1];

  it('accepts the one address a server listens on', () => {
    expect(listenHostnames('192.168.1.20', interfaces)).toEqual(['192.168.1.20']);
  });
  it('accepts every address of the machine for a wildcard, except scoped link-local ones', () => {
    expect(listenHostnames('0.0.0.0', interfaces)).toEqual(['127.0.0.1', '192.168.1.20', '[2001:db8::5]']);
  });
});

describe('normalizeHostname', () => {
  it('lower-cases names, brackets IPv6 and refuses what is not a hostname', () => {
    expect(normalizeHostname('Quire.Example')).toBe('quire.example');
    expect(normalizeHostname('2001:db8::5')).toBe('[2001:db8::5]');
    expect(normalizeHostname('http://quire.example')).toBeNull();
    expect(normalizeHostname('quire.example:80')).toBeNull();
    expect(normalizeHostname('')).toBeNull();
  });
});
