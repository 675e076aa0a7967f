import { AppError } from '../errors/app-error.js';

/**
 * `?force=true` on a request that takes no other parameter (a delete or change that is refused
 * while something still uses what it removes): true, false (absent, `false`, `0`), or a 400 for any
 * other value or parameter.
 */
export function forceFlag(query: Record<string, unknown>): boolean {
  for (const name of Object.keys(query)) {
    if (name !== 'force')
      throw new AppError('bad_request', `Unknown query parameter ${JSON.stringify(name)}; use force`);
  }
  const value = query.force;
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new AppError('bad_request', 'force must be true or false');
}
