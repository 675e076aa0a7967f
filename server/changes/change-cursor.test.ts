import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error.js';
import { cursorOf, positionOf, START_CURSOR } from './change-cursor.js';

describe('change-feed cursors', () => {
  it('round-trip every position, the start as 0', () => {
    for (const position of [
      { tx: 0, id: 1 },
      { tx: 0, id: 123456789 },
      { tx: 4294967300, id: 7 },
      { tx: 999999999999999, id: 999999999999999 },
    ]) {
      const cursor = cursorOf(position);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(positionOf(cursor)).toEqual(position);
    }
    expect(cursorOf({ tx: 0, id: 0 })).toBe(START_CURSOR);
    expect(positionOf(START_CURSOR)).toEqual({ tx: 0, id: 0 });
  });

  it('refuse anything no feed gave as bad_cursor', () => {
    const given = cursorOf({ tx: 12, id: 3 });
    const spelt = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
    for (const cursor of [
      '',
      '00',
      '-1',
      'not a cursor',
      `${given}=`,
      spelt('12'),
      spelt('12.3.4'),
      spelt('012.3'),
      spelt('12.-3'),
      spelt('1.5e3'),
      spelt('1234567890123456.1'),
      'x'.repeat(60),
    ]) {
      expect(() => positionOf(cursor), cursor).toThrow(AppError);
      try {
        positionOf(cursor);
      } catch (error) {
        expect((error as AppError).code).toBe('bad_cursor');
        expect((error as AppError).status).toBe(400);
      }
    }
  });
});
