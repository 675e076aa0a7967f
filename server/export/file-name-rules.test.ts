import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { portableFileName, portableFileNames } from './file-name-rules.js';

const hash = (name: string, length = 16) => createHash('sha256').update(name).digest('hex').slice(0, length);

describe('portableFileName', () => {
  it('keeps a lower-case id as it is: its URL segment', () => {
    expect(portableFileName('0190a1b2-c3d4-7e5f-8a9b-000000000001', '.json')).toBe(
      '0190a1b2-c3d4-7e5f-8a9b-000000000001.json',
    );
    expect(portableFileName('harbour_opens.v2~draft', '.json')).toBe('harbour_opens.v2~draft.json');
    expect(portableFileName('a b/c?d', '.json')).toBe('a%20b%2Fc%3Fd.json');
    expect(decodeURIComponent(portableFileName('x:y|z"<>', ''))).toBe('x:y|z"<>');
  });

  it('gives a name with upper-case letters a hash of itself, so it never meets one that differs in case', () => {
    expect(portableFileName('abc', '.json')).toBe('abc.json');
    expect(portableFileName('Abc', '.json')).toBe(`Abc@${hash('Abc')}.json`);
    expect(portableFileName('ABC', '.json')).toBe(`ABC@${hash('ABC')}.json`);
    const names = ['abc', 'Abc', 'ABC', 'aBc'].map((id) => portableFileName(id, '.json').toLowerCase());
    expect(new Set(names).size).toBe(4);
    // An id that spells out another's suffixed name is not that name: its `@` is encoded.
    expect(portableFileName(`abc@${hash('Abc')}`, '.json')).toBe(`abc%40${hash('Abc')}.json`);
  });

  it('avoids Windows device names in any case and with any extension, and what else is reserved', () => {
    expect(portableFileName('con', '.json')).toBe('%63on.json');
    expect(portableFileName('aux', '')).toBe('%61ux');
    expect(portableFileName('com1', '.json')).toBe('%63om1.json');
    expect(portableFileName('lpt9.old', '.json')).toBe('%6Cpt9.old.json');
    expect(portableFileName('NUL', '.json')).toBe(`%4EUL@${hash('NUL')}.json`);
    expect(portableFileName('console', '.json')).toBe('console.json');
    expect(portableFileName('com10', '.json')).toBe('com10.json');
    expect(decodeURIComponent(portableFileName('prn', ''))).toBe('prn');
    expect(portableFileName('index', '.json', { reserved: new Set(['index']) })).toBe('%69ndex.json');
  });

  it('never starts or ends a name with a dot, nor writes `*`, and gives an empty name a hash', () => {
    expect(portableFileName('.', '.json')).toBe('%2E.json');
    expect(portableFileName('..', '')).toBe('%2E%2E');
    expect(portableFileName('.hidden', '.json')).toBe('%2Ehidden.json');
    expect(portableFileName('trailing.', '')).toBe('trailing%2E');
    expect(portableFileName('a*b', '.json')).toBe('a%2Ab.json');
    expect(portableFileName('', '.json')).toBe(`@${hash('')}.json`);
  });

  it('cuts a long name well under 255 bytes, without splitting an escape, and keeps it unique', () => {
    const long = 'x'.repeat(300);
    const file = portableFileName(long, '.json');
    expect(file).toBe(`${'x'.repeat(100)}@${hash(long)}.json`);
    expect(Buffer.byteLength(file)).toBeLessThan(128);
    expect(portableFileName(`${long}y`, '.json')).not.toBe(file);
    const encoded = portableFileName(`${'x'.repeat(99)}${'é'.repeat(100)}`, '.json');
    expect(encoded.startsWith(`${'x'.repeat(99)}@`)).toBe(true);
    const wide = portableFileName('日本'.repeat(200), '.json');
    expect(Buffer.byteLength(wide)).toBeLessThan(128);
    expect(wide).toMatch(/^(?:%[0-9A-F]{2})+@[0-9a-f]{16}\.json$/);
  });

  it('names an id with a lone surrogate, which no URL segment holds', () => {
    expect(portableFileName('a\uD800', '.json')).toBe(`a%EF%BF%BD@${hash('a\uD800')}.json`);
  });
});

describe('portableFileNames', () => {
  it('maps each name to a file name, none equal to another ignoring case', () => {
    const files = portableFileNames(['b', 'Abc', 'abc', 'con', 'b'], '.json');
    expect([...files]).toEqual([
      ['Abc', `Abc@${hash('Abc')}.json`],
      ['abc', 'abc.json'],
      ['b', 'b.json'],
      ['con', '%63on.json'],
    ]);
  });

  it('keeps names apart that fold alike once cut', () => {
    const a = `A${'x'.repeat(200)}`;
    const b = `a${'x'.repeat(200)}`;
    const files = portableFileNames([a, b], '.json');
    expect(files.get(a)).toBe(`A${'x'.repeat(99)}@${hash(a)}.json`);
    expect(files.get(b)).toBe(`a${'x'.repeat(99)}@${hash(b)}.json`);
  });

  it('gives the whole hash to the later of two names whose short hashes meet', async () => {
    // A hash whose first 16 digits are the same for every name: the short suffixes always meet.
    vi.resetModules();
    vi.doMock('node:crypto', async (original) => {
      const real = await original<typeof import('node:crypto')>();
      return {
        ...real,
        createHash: () => {
          let text = '';
          const fake = {
            update: (value: string) => {
              text += value;
              return fake;
            },
            digest: () => `${'0'.repeat(16)}${real.createHash('sha256').update(text).digest('hex').slice(16)}`,
          };
          return fake;
        },
      };
    });
    try {
      const rules = await import('./file-name-rules.js');
      const files = rules.portableFileNames(['Abc', 'aBc'], '.json');
      expect(files.get('Abc')).toBe(`Abc@${'0'.repeat(16)}.json`);
      expect(files.get('aBc')).toBe(`aBc@${'0'.repeat(16)}${hash('aBc', 64).slice(16)}.json`);
    } finally {
      vi.doUnmock('node:crypto');
      vi.resetModules();
    }
  });
});
