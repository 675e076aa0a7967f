import { isRole, nameProblem, passwordProblem } from '../../common/access-rules.js';
import { ROLES, type Role } from '../../common/api-contract.js';
import { EDITOR_LANGUAGES, type EditorLanguage, isEditorLanguage } from '../../common/editor-language-rules.js';
import { AppError, validationError } from '../errors/app-error.js';

/** Checks of account and token input, shared by the API and the CLI; each throws a 400 naming the problem. */

/** A content type's table or slug as a limit names it. */
const TYPE_NAME = /^[a-z][a-z0-9_-]{0,62}$/;

/** Longest token lifetime in days (ten years). */
export const MAX_TOKEN_DAYS = 3650;

function refuse(message: string): never {
  throw new AppError('bad_request', message);
}

/** A checked account or token name. */
export function checkName(value: unknown): string {
  const problem = nameProblem(value);
  if (problem) refuse(problem);
  return value as string;
}

/** A checked role. */
export function checkRole(value: unknown): Role {
  if (!isRole(value)) refuse(`the role must be one of ${ROLES.join(', ')}`);
  return value;
}

/** A checked new password. */
export function checkPassword(value: unknown): string {
  const problem = passwordProblem(value);
  if (problem) refuse(problem);
  return value as string;
}

/** A checked editor language, or null (also `''`) to follow the browser; anything else names the choices. */
export function checkLanguage(value: unknown): EditorLanguage | null {
  if (value === null || value === '') return null;
  if (!isEditorLanguage(value))
    throw validationError({ language: { code: 'not_an_option', options: [...EDITOR_LANGUAGES] } });
  return value;
}

/**
 * A content-type limit: a list of tables or slugs (an array, or text separated by commas, as a
 * form or the CLI sends it), or null (also `undefined`, `''`) for every type.
 */
export function checkTypeLimit(value: unknown): string[] | null {
  if (value === undefined || value === null || value === '') return null;
  const list = typeof value === 'string' ? value.split(',').map((name) => name.trim()) : value;
  if (!Array.isArray(list) || list.length === 0 || list.length > 100) {
    refuse('content_types must list 1 to 100 content types (tables or slugs), or be left out for all');
  }
  for (const name of list) {
    if (typeof name !== 'string' || !TYPE_NAME.test(name)) {
      refuse(`content_types: ${JSON.stringify(name)} is not a content type's table or slug`);
    }
  }
  return [...new Set(list as string[])];
}

/** Days until a token expires (a whole number from 1 to 3650), or null for never. */
export function checkExpiryDays(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const days = typeof value === 'string' ? Number(value) : value;
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > MAX_TOKEN_DAYS) {
    refuse(`expires_days must be a whole number of days from 1 to ${MAX_TOKEN_DAYS}`);
  }
  return days;
}

/** A boolean as JSON or a form sends it. */
export function checkBoolean(value: unknown, name: string): boolean {
  if (value === true || value === 'true' || value === '1') return true;
  if (value === false || value === 'false' || value === '0') return false;
  refuse(`${name} must be true or false`);
}

/** The members of an object body, refusing any not listed (a misspelt member would be ignored otherwise). */
export function bodyMembers(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) refuse('the body must be an object');
  const unknown = Object.keys(body).find((name) => !allowed.includes(name));
  if (unknown !== undefined) refuse(`unknown member ${JSON.stringify(unknown)}; use ${allowed.join(', ')}`);
  return body as Record<string, unknown>;
}
