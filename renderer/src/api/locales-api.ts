import type { LocalesDocument } from '../../../common/locale-contract.js';
import { callTagged, type Tagged } from './auth-api.js';

/** The site's languages (`/api/locales`): read by everyone, replaced by admins, each with its ETag. */
export const localesApi = {
  get: () => callTagged<LocalesDocument>('GET', '/locales'),
  /**
   * Replaces them; `force` removes locales that still hold values (their values go). With `etag`
   * (the ETag of the read the change started from), a change made meanwhile is a 412 `stale_write`.
   */
  replace: (
    document: LocalesDocument,
    options: { force?: boolean; etag?: string | null } = {},
  ): Promise<Tagged<LocalesDocument>> =>
    callTagged<LocalesDocument>(
      'PUT',
      `/locales${options.force ? '?force=true' : ''}`,
      document,
      options.etag ?? undefined,
    ),
};
