import { describe, expect, it } from 'vitest';
import { parseNumberText } from './number-syntax.js';

describe('the number syntax', () => {
  it.each([
    [' 42 ', 42],
    ['-3.5', -3.5],
    ['.5', 0.5],
    ['7.', 7],
    ['1e3', 1000],
    ['-2E-2', -0.02],
  ])('reads %j as %d', (text, value) => {
    expect(parseNumberText(text)).toEqual({ kind: 'number', value });
  });

  it.each(['12 apples', '0x10', '1,5', '+1', 'Infinity', 'NaN', '--1', '.'])('refuses %j', (text) => {
    expect(parseNumberText(text)).toMatchObject({ kind: 'invalid', reason: 'syntax' });
  });

  it('refuses numbers too large to be finite, and reads blank as empty', () => {
    expect(parseNumberText('1e999')).toMatchObject({ kind: 'invalid', reason: 'not_finite' });
    expect(parseNumberText('  ')).toEqual({ kind: 'empty' });
  });
});
