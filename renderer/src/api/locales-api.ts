import type { LocalesDocument } from '../../../common/locale-contract.js';
import { call } from './auth-api.js';

/** The site's languages (`/api/locales`): read by everyone, replaced by admins. */
export const localesApi = {
  get: () => call<LocalesDocument>('GET', '/locales'),
  /** Replaces them; `force` removes locales that still hold values (their values go). */
  replace: (document: LocalesDocument, force = false) =>
    call<LocalesDocument>('PUT', `/locales${force ? '?force=true' : ''}`, document),
};
