import { describe, expect, it } from 'vitest';
import { parseChildMessage, parseParentMessage, type ServerChildOptions } from './server-child-protocol.js';

const options: ServerChildOptions = {
  dbFile: '/data/content.sqlite',
  port: 4780,
  host: '127.0.0.1',
  editorName: 'ana',
  editorDir: '/app/dist/renderer',
};

describe('parent messages', () => {
  it('reads a start message, with and without an Electron addon', () => {
    expect(parseParentMessage({ type: 'start', options })).toEqual({ type: 'start', options });
    const withAddon = { ...options, nativeBinding: '/app/native/electron/better_sqlite3.node' };
    expect(parseParentMessage({ type: 'start', options: withAddon })).toEqual({ type: 'start', options: withAddon });
    expect(parseParentMessage({ type: 'start', options: { ...options, editorDir: null } })).toEqual({
      type: 'start',
      options: { ...options, editorDir: null },
    });
  });

  it('reads a stop message', () => {
    expect(parseParentMessage({ type: 'stop' })).toEqual({ type: 'stop' });
  });

  it('keeps only the declared fields of a start message', () => {
    const parsed = parseParentMessage({ type: 'start', options: { ...options, token: 'x' }, extra: 1 });
    expect(parsed).toEqual({ type: 'start', options });
  });

  const malformed: [string, unknown][] = [
    ['nothing', undefined],
    ['a string', 'start'],
    ['an unknown type', { type: 'restart' }],
    ['start without options', { type: 'start' }],
    ['a port out of range', { type: 'start', options: { ...options, port: 70000 } }],
    ['a fractional port', { type: 'start', options: { ...options, port: 47.8 } }],
    ['an empty database path', { type: 'start', options: { ...options, dbFile: '' } }],
    ['a numeric host', { type: 'start', options: { ...options, host: 127 } }],
    ['an empty addon path', { type: 'start', options: { ...options, nativeBinding: '' } }],
    ['an editor folder that is not text', { type: 'start', options: { ...options, editorDir: 1 } }],
  ];
  for (const [name, data] of malformed) {
    it(`drops ${name}`, () => {
      expect(parseParentMessage(data)).toBeNull();
    });
  }
});

describe('child messages', () => {
  const valid: unknown[] = [
    { type: 'ready', origin: 'http://127.0.0.1:4780', port: 4780, dbFile: '/data/content.sqlite' },
    { type: 'start-failed', code: 'EADDRINUSE', explanation: 'Port 4780 is already in use on 127.0.0.1.' },
    { type: 'start-failed', code: null, explanation: 'Quire could not start: boom' },
    { type: 'stopped' },
    { type: 'log', message: 'GET /api/cms/news failed', detail: 'Error: boom' },
  ];
  for (const message of valid) {
    it(`reads ${(message as { type: string }).type} as sent`, () => {
      expect(parseChildMessage(message)).toEqual(message);
    });
  }

  const malformed: [string, unknown][] = [
    ['null', null],
    ['an array', ['ready']],
    ['ready on port 0 (not listening yet)', { type: 'ready', origin: 'http://127.0.0.1:0', port: 0, dbFile: '/d' }],
    ['ready with a non-http origin', { type: 'ready', origin: 'file:///etc', port: 4780, dbFile: '/d' }],
    ['ready without a database', { type: 'ready', origin: 'http://127.0.0.1:4780', port: 4780 }],
    ['start-failed without an explanation', { type: 'start-failed', code: 'X', explanation: '' }],
    ['start-failed with a numeric code', { type: 'start-failed', code: 98, explanation: 'in use' }],
    ['log without detail', { type: 'log', message: 'x' }],
  ];
  for (const [name, data] of malformed) {
    it(`drops ${name}`, () => {
      expect(parseChildMessage(data)).toBeNull();
    });
  }
});
