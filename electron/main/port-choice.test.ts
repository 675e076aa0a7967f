import { describe, expect, it } from 'vitest';
import { choosePort, parsePort, portAttempts, startOnFirstFreePort } from './port-choice.js';

describe('choosing the port', () => {
  it('prefers --port, then QUIRE_PORT, then the remembered port, then the default', () => {
    expect(choosePort({ argPort: 5000, envPort: 5001, rememberedPort: 5002, defaultPort: 4780 })).toEqual({
      port: 5000,
      source: 'argument',
    });
    expect(choosePort({ envPort: 5001, rememberedPort: 5002, defaultPort: 4780 })).toEqual({
      port: 5001,
      source: 'environment',
    });
    expect(choosePort({ rememberedPort: 5002, defaultPort: 4780 })).toEqual({ port: 5002, source: 'remembered' });
    expect(choosePort({ rememberedPort: null, defaultPort: 4780 })).toEqual({ port: 4780, source: 'default' });
  });

  it('accepts an explicit 0 (any free port) but never remembers 0', () => {
    expect(choosePort({ argPort: 0, defaultPort: 4780 })).toEqual({ port: 0, source: 'argument' });
    expect(choosePort({ rememberedPort: 0, defaultPort: 4780 })).toEqual({ port: 4780, source: 'default' });
  });

  it('tries a free port after a taken remembered or default port, never after an explicit one', () => {
    expect(portAttempts({ port: 4780, source: 'default' })).toEqual([4780, 0]);
    expect(portAttempts({ port: 5002, source: 'remembered' })).toEqual([5002, 0]);
    expect(portAttempts({ port: 5000, source: 'argument' })).toEqual([5000]);
    expect(portAttempts({ port: 5001, source: 'environment' })).toEqual([5001]);
    expect(portAttempts({ port: 0, source: 'argument' })).toEqual([0]);
  });

  it('reads port text, rejecting what is not a whole number in range', () => {
    expect(parsePort(undefined, '--port')).toBeUndefined();
    expect(parsePort('', '--port')).toBeUndefined();
    expect(parsePort('4780', '--port')).toBe(4780);
    expect(parsePort('0', '--port')).toBe(0);
    for (const bad of ['-1', '65536', '47.8', 'abc', '1e3', '0x10']) {
      expect(parsePort(bad, 'QUIRE_PORT')).toEqual({
        error: 'QUIRE_PORT must be a whole number from 0 to 65535 (0 picks a free port)',
      });
    }
  });
});

describe('starting on the first free port', () => {
  const inUse = () => Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE' });

  it('moves to a free port when the default one is taken', async () => {
    const tried: number[] = [];
    const result = await startOnFirstFreePort({ port: 4780, source: 'default' }, async (port) => {
      tried.push(port);
      if (port === 4780) throw inUse();
      return `listening on ${port}`;
    });
    expect(tried).toEqual([4780, 0]);
    expect(result).toBe('listening on 0');
  });

  it('reports a taken explicit port instead of moving', async () => {
    const tried: number[] = [];
    await expect(
      startOnFirstFreePort({ port: 5000, source: 'argument' }, async (port) => {
        tried.push(port);
        throw inUse();
      }),
    ).rejects.toMatchObject({ code: 'EADDRINUSE' });
    expect(tried).toEqual([5000]);
  });

  it('does not retry other failures', async () => {
    const tried: number[] = [];
    await expect(
      startOnFirstFreePort({ port: 4780, source: 'default' }, async (port) => {
        tried.push(port);
        throw Object.assign(new Error('not a database'), { code: 'SQLITE_NOTADB' });
      }),
    ).rejects.toMatchObject({ code: 'SQLITE_NOTADB' });
    expect(tried).toEqual([4780]);
  });
});
