import { type ChangePosition, START } from '../db/repositories/change-repository.js';
import { AppError } from '../errors/app-error.js';

/** The cursor before every change kept: `since=0`. */
export const START_CURSOR = '0';

/** A position's parts: whole numbers a JavaScript number holds exactly, without a sign or leading zeros. */
const POSITION = /^(0|[1-9]\d{0,14})\.(0|[1-9]\d{0,14})$/;

/** A position as clients see it: opaque (base64url of `tx.id`), the same on every server of the database. */
export function cursorOf(position: ChangePosition): string {
  if (position.tx === 0 && position.id === 0) return START_CURSOR;
  return Buffer.from(`${position.tx}.${position.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; AppError `bad_cursor` for anything no feed gave. */
export function positionOf(cursor: string): ChangePosition {
  if (cursor === START_CURSOR) return START;
  const match = /^[A-Za-z0-9_-]{1,52}$/.test(cursor)
    ? POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'))
    : null;
  // Base64url has several spellings of one text (trailing bits); only the one given out is one.
  if (!match || Buffer.from(match[0], 'utf8').toString('base64url') !== cursor) throw badCursor();
  return { tx: Number(match[1]), id: Number(match[2]) };
}

/** A cursor this database never gave. */
export function badCursor(): AppError {
  return new AppError('bad_cursor', 'This is not a change-feed cursor of this database: start again with since=0');
}
