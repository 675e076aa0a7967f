import { AppError } from '../errors/app-error.js';
import { MAX_SVG_BYTES, sanitizeSvg } from './svg-sanitizer.js';

/**
 * What cleaning makes of an SVG that reached the site other than by upload (a file copied into the
 * media folder, which the library then adopts; a backup restored; a site copied from another
 * database): the same cleaning an upload gets, in the same worker. Such a file is the user's own,
 * so nothing is changed without a trace: the file as it was is kept aside where it is never served
 * and a log line names both.
 */
type StoredSvgCheck =
  /** Cleaning keeps it byte for byte (it was cleaned at upload, or carries nothing to remove). */
  | { kind: 'clean' }
  /** Cleaning removed something: these bytes take its place. */
  | { kind: 'cleaned'; bytes: Buffer }
  /** Cleaning refuses it whole (not well-formed, entities, not an SVG, draws nothing, too large): why. */
  | { kind: 'refused'; reason: string };

/** Cleans a stored SVG's bytes as an upload's are cleaned, and says what that changed. */
async function checkStoredSvg(bytes: Buffer): Promise<StoredSvgCheck> {
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

/** An SVG arriving other than by upload, as `cleanArrivingSvg` takes it. */
export interface ArrivingSvg {
  /** Its media path (the part after `/media/`). */
  path: string;
  /** Its bytes as they arrived. */
  bytes: Buffer;
  /** How it arrived, for the log line: `that did not come through an upload`, `of the backup`... */
  how: string;
  /**
   * Keeps the bytes as they arrived where they are never served. `replacement` is what takes their
   * place (the cleaned bytes, or none: the path then has no file), for a store that holds them
   * already; it is also what `cleanArrivingSvg` returns. Returns where they are kept, for the log
   * line, or null where no copy is kept.
   */
  setAside(replacement: Buffer | null): Promise<string | null>;
  log(line: string): void;
}

/**
 * The one cleaning of every SVG that reaches the site other than by upload: one cleaning keeps byte
 * for byte stays as it is; one it changes or refuses is set aside (`setAside`) and said in one
 * line. Returns the bytes to keep, or null when none are (refused: no file, so no asset).
 */
export async function cleanArrivingSvg(svg: ArrivingSvg): Promise<Buffer | null> {
  const checked = await checkStoredSvg(svg.bytes);
  if (checked.kind === 'clean') return svg.bytes;
  const replacement = checked.kind === 'cleaned' ? checked.bytes : null;
  const kept = await svg.setAside(replacement);
  const original = kept ? `; the file as it was is kept in ${kept}` : '';
  svg.log(
    checked.kind === 'cleaned'
      ? `media/${svg.path} is an SVG ${svg.how}: it was cleaned as uploads are (script and outside references removed)${original}`
      : `media/${svg.path} is an SVG ${svg.how} and cannot be cleaned (${checked.reason}): it is not served${original}; upload the drawing again`,
  );
  return replacement;
}
