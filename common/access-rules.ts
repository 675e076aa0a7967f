/**
 * Who may do what: the roles' abilities, name and password rules for accounts and tokens. Shared
 * by the server (which enforces them on every request) and the editor (which hides what a role
 * may not use). Pure: no Node, DOM or package imports.
 */
import { type Abilities, ROLES, type Role } from './api-contract.js';

/** Shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 10;

/** Longest password accepted (hashing a megabyte on every sign-in attempt would be a cheap attack). */
export const MAX_PASSWORD_LENGTH = 256;

/** Longest account or token name. */
export const MAX_NAME_LENGTH = 64;

/** Account and token names: a letter or digit, then letters, digits, `.`, `_`, `@`, `-`. */
const NAME = new RegExp(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,${MAX_NAME_LENGTH - 1}}$`);

const NOTHING: Abilities = {
  read: false,
  create_rows: false,
  change_any_row: false,
  change_own_rows: false,
  upload: false,
  manage_types: false,
  manage_accounts: false,
};

/**
 * Each role's abilities. Authors may upload: an article's image is part of writing it, and an
 * upload changes no one else's content.
 */
const ABILITIES: Record<Role, Abilities> = {
  admin: {
    read: true,
    create_rows: true,
    change_any_row: true,
    change_own_rows: true,
    upload: true,
    manage_types: true,
    manage_accounts: true,
  },
  editor: { ...NOTHING, read: true, create_rows: true, change_any_row: true, change_own_rows: true, upload: true },
  author: { ...NOTHING, read: true, create_rows: true, change_own_rows: true, upload: true },
  viewer: { ...NOTHING, read: true },
};

/** What `role` may do (nothing without a role). */
export function abilitiesOf(role: Role | null): Abilities {
  return role === null ? { ...NOTHING } : { ...ABILITIES[role] };
}

/**
 * Whether someone may change or delete a row: anyone who may change any row, or one who may change
 * their own and created it (an author). The server refuses other writes; the editor shows such a
 * row read-only.
 */
export function mayChangeRow(
  can: Pick<Abilities, 'change_any_row' | 'change_own_rows'>,
  name: string | null,
  createdBy: unknown,
): boolean {
  if (can.change_any_row) return true;
  return can.change_own_rows && name !== null && createdBy === name;
}

/** Whether `value` names a role. */
export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Whether a content-type limit (tables or slugs; null: all) lets the caller at `type`. */
export function typeAllowed(limit: readonly string[] | null, type: { table: string; slug: string }): boolean {
  return limit === null || limit.includes(type.table) || limit.includes(type.slug);
}

/** What is wrong with an account or token name, or null. */
export function nameProblem(name: unknown): string | null {
  if (typeof name !== 'string' || name === '') return 'a name is required';
  if (!NAME.test(name)) {
    return `a name is 1 to ${MAX_NAME_LENGTH} letters, digits, ".", "_", "@" or "-", starting with a letter or digit`;
  }
  return null;
}

/** What is wrong with a new password, or null. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string' || password === '') return 'a password is required';
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `the password must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `the password must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}
