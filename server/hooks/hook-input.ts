import type { FieldProblems } from '../../common/field-problems.js';
import { HOOK_ACTIONS, type HookAction } from '../../common/publishing-contract.js';
import { AppError, validationError } from '../errors/app-error.js';

/** Longest hook address and secret accepted. */
const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 512;

/** A hook write as checked: only the members the request set. */
export interface HookInput {
  url?: string;
  content_types?: string[] | null;
  actions?: HookAction[] | null;
  secret?: string | null;
}

/**
 * Checks a hook write (`POST /api/hooks` needs `url`; a change sets what it names): an http(s)
 * address, content types that exist (tables or slugs, stored as tables), known actions, a secret
 * of text. Every problem is named at once.
 */
export function parseHookInput(
  body: unknown,
  mode: 'create' | 'change',
  tableOf: (name: string) => string | null,
): HookInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError(
      'bad_request',
      'Send a JSON object: {"url": "https://...", "content_types": null, "actions": null}',
    );
  }
  const { url, content_types: types, actions, secret, ...rest } = body as Record<string, unknown>;
  const problems: FieldProblems = {};
  const input: HookInput = {};
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw new AppError('bad_request', `Unknown members: ${unknown.join(', ')}`, undefined, {
      code: 'unknown_members',
      members: unknown,
    });
  if (url !== undefined || mode === 'create') {
    if (url === undefined || url === null || url === '') problems.url = { code: 'required' };
    else if (!isHookUrl(url)) problems.url = { code: 'not_a_hook_url' };
    else input.url = url as string;
  }
  if (types !== undefined) {
    if (types === null) input.content_types = null;
    else if (!Array.isArray(types) || types.some((name) => typeof name !== 'string')) {
      problems.content_types = { code: 'not_a_list' };
    } else {
      const tables: string[] = [];
      for (const name of types as string[]) {
        const table = tableOf(name);
        if (table === null) {
          problems.content_types = { code: 'no_such_type', type: name };
          break;
        }
        if (!tables.includes(table)) tables.push(table);
      }
      input.content_types = tables;
    }
  }
  if (actions !== undefined) {
    if (actions === null) input.actions = null;
    else if (
      !Array.isArray(actions) ||
      actions.some((action) => !(HOOK_ACTIONS as readonly unknown[]).includes(action))
    ) {
      problems.actions = { code: 'not_an_option', options: [...HOOK_ACTIONS] };
    } else input.actions = [...new Set(actions as HookAction[])];
  }
  if (secret !== undefined) {
    if (secret === null || secret === '') input.secret = null;
    else if (typeof secret !== 'string') problems.secret = { code: 'not_text' };
    else if (secret.length > MAX_SECRET_LENGTH) problems.secret = { code: 'too_long', max: MAX_SECRET_LENGTH };
    else if (secret.includes('\u0000')) problems.secret = { code: 'nul_character' };
    else input.secret = secret;
  }
  if (Object.keys(problems).length > 0) throw validationError(problems);
  return input;
}

/**
 * An absolute http:// or https:// address (no other scheme is ever called) without a user name or
 * password: fetch refuses to send such a URL, so the hook could never be delivered, and the address
 * is shown back in answers and delivery errors (the secret is the way to authenticate a delivery).
 */
export function isHookUrl(value: unknown): boolean {
  // A NUL is kept as sent (and PostgreSQL cannot store it).
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || value.includes('\u0000')) return false;
  try {
    const parsed = new URL(value);
    if (parsed.username !== '' || parsed.password !== '') return false;
    return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
  } catch {
    return false;
  }
}
