import { AppError } from '../errors/app-error.js';
import { MAX_SVG_BYTES, sanitizeSvg } from './svg-sanitizer.js';

/**
 * What cleaning makes of an SVG that reached the media store other than by upload (a file copied
 * into the media folder, which the library then adopts): the same cleaning an upload gets, in the
 * same worker. Such a file is the user's own, so nothing is changed without a trace: the store
 * keeps the file as it was aside (`MediaStore.setAside`) and the library says so in a log line.
 */
export type StoredSvgCheck =
  /** Cleaning keeps it byte for byte (it was cleaned at upload, or carries nothing to remove). */
  | { kind: 'clean' }
  /** Cleaning removed something: these bytes take its place. */
  | { kind: 'cleaned'; bytes: Buffer }
  /** Cleaning refuses it whole (not well-formed, entities, not an SVG, draws nothing, too large): why. */
  | { kind: 'refused'; reason: string };

/** Cleans a stored SVG's bytes as an upload's are cleaned, and says what that changed. */
export async function checkStoredSvg(bytes: Buffer): Promise<StoredSvgCheck> {
  if (bytes.length > MAX_SVG_BYTES) {
    return { kind: 'refused', reason: `it is larger than ${MAX_SVG_BYTES} bytes, the limit for drawings` };
  }
  let cleaned: Buffer;
  try {
    cleaned = Buffer.from(await sanitizeSvg(bytes.toString('utf8')), 'utf8');
  } catch (error) {
    if (error instanceof AppError) return { kind: 'refused', reason: error.message };
    throw error;
  }
  return cleaned.equals(bytes) ? { kind: 'clean' } : { kind: 'cleaned', bytes: cleaned };
}
