import { ApiError, describeError } from '../api/api-error.js';
import { formatNumber } from '../i18n/formatters.js';
import { i18n } from '../i18n/i18n-instance.js';

/** The file name at the end of a media path. */
export function mediaFileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `1.4 MB`, `820 KB`, `96 bytes`, the number as the editor's language writes it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return i18n.t('fields:image.bytes', { count: bytes, size: formatNumber(bytes) });
  const units = ['KB', 'MB', 'GB'];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${formatNumber(size >= 10 ? Math.round(size) : Math.round(size * 10) / 10)} ${units[unit]}`;
}

/** The media types the server accepts (it decides by content; this only guides the file picker). */
export const ACCEPTED_IMAGES = 'image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml';

/** A sentence saying why an upload failed, naming the file; 413 and 415 say what to do instead. */
export function uploadProblem(file: { name: string; size: number }, error: unknown): string {
  const name = file.name ? i18n.t('fields:image.quoted', { name: file.name }) : i18n.t('fields:image.theFile');
  const size = formatBytes(file.size);
  if (error instanceof ApiError && error.status === 413) {
    const limit = error.detail?.code === 'too_large' ? error.detail.limit : null;
    return limit === null
      ? i18n.t('fields:image.tooLarge', { name, size })
      : i18n.t('fields:image.tooLargeLimit', { name, size, limit: formatBytes(limit) });
  }
  if (error instanceof ApiError && error.status === 415) return i18n.t('fields:image.notImage', { name });
  if (error instanceof ApiError && error.code === 'network_error') return describeError(error);
  return i18n.t('fields:image.failed', { name, reason: describeError(error) });
}
