import { ApiError, describeError } from '../api/api-error.js';

/** The file name at the end of a media path. */
export function mediaFileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** `1.4 MB`, `820 KB`, `96 bytes`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB'];
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size >= 10 ? Math.round(size) : Math.round(size * 10) / 10} ${units[unit]}`;
}

/** The media types the server accepts (it decides by content; this only guides the file picker). */
export const ACCEPTED_IMAGES = 'image/png,image/jpeg,image/gif,image/webp,image/avif';

/** A sentence saying why an upload failed, naming the file; 413 and 415 say what to do instead. */
export function uploadProblem(file: { name: string; size: number }, error: unknown): string {
  const name = file.name ? `“${file.name}”` : 'The file';
  if (error instanceof ApiError && error.status === 413) {
    const limit = error.detail?.code === 'too_large' ? error.detail.limit : null;
    return limit === null
      ? `${name} is too large (${formatBytes(file.size)}) for this server.`
      : `${name} is too large (${formatBytes(file.size)}). This server accepts images up to ${formatBytes(limit)}.`;
  }
  if (error instanceof ApiError && error.status === 415) {
    return `${name} is not an image Quire can store. Choose a PNG, JPEG, GIF, WebP or AVIF file.`;
  }
  if (error instanceof ApiError && error.code === 'network_error') return describeError(error);
  return `Couldn’t upload ${name}: ${describeError(error)}`;
}
