import { createHash } from 'node:crypto';

/**
 * File names an export gives rows and types, safe on every file system a site may be built on: a
 * name is percent-encoded as a URL path segment is (letters, digits, `-_.~!'()` and `%` escapes,
 * which decode back to the name), and changed where that is not enough, so two names never meet:
 * case-insensitive file systems (macOS, Windows) take `Abc` and `abc` for one file, Windows keeps
 * device names (`con`, `NUL`, `com1`, with any extension) and drops a final dot, and file systems
 * cap a name at 255 bytes. A URL to one of these files encodes its name again (`%` as `%25`).
 */

/** Longest stem (ASCII, so bytes) written in full: with a suffix and an extension, well under 255. */
const MAX_STEM = 100;

/** Hex digits of the hash suffix; the whole hash where a shorter one met another name. */
const SUFFIX_HASH = 16;

/** Device names Windows keeps, before the first dot, in any case. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

/** What else a file name may not be besides device names (the export's own files, say). */
export interface FileNameRules {
  /** Stems, lower-case, taken by other files beside these (`index` for `index.json`). */
  reserved?: ReadonlySet<string>;
}

/**
 * A portable file name for `name` (a row id, a table) with `extension` (`.json`, or `` for a
 * folder). It is the name percent-encoded as a URL segment (also `*`, which Windows refuses, and a
 * dot at either end), so decoding gives the name back, except that:
 * - a Windows device name or a reserved stem gets its first character encoded (`%63on`);
 * - a name with an upper-case letter, an empty one, or a stem too long (cut), ends in `@` and a
 *   hash of the whole name: `@` is encoded in every other name, so no other name meets it.
 * So two names never give names equal ignoring case, but for a hash collision (`portableFileNames`
 * settles those).
 */
export function portableFileName(
  name: string,
  extension: string,
  rules: FileNameRules = {},
  hashLength: number = SUFFIX_HASH,
): string {
  let wellFormed = true;
  let stem: string;
  try {
    stem = encodeSegment(name);
  } catch {
    // A lone surrogate (no URL segment has one): its stand-in is not unique, the hash makes it so.
    wellFormed = false;
    stem = encodeSegment(name.replace(/[\uD800-\uDFFF]/g, '\uFFFD'));
  }
  const device = stem.split('.')[0];
  if (WINDOWS_DEVICE.test(device) || rules.reserved?.has(stem.toLowerCase())) stem = escapeFirst(stem);
  const hashed = !wellFormed || stem === '' || /[A-Z]/.test(name) || stem.length > MAX_STEM || hashLength > SUFFIX_HASH;
  if (!hashed) return `${stem}${extension}`;
  const cut = stem.length > MAX_STEM ? stem.slice(0, MAX_STEM).replace(/%[0-9A-F]?$/, '') : stem;
  const hash = nameHash(name).slice(0, hashLength);
  return `${cut}@${hash}${extension}`;
}

/**
 * The hash a changed name ends with (its first hex digits): SHA-256 of the name, in hex. An export
 * also places rows on pages by it (export-pages.ts), so names whose suffixes could meet share a page.
 */
export function nameHash(name: string): string {
  return createHash('sha256').update(name).digest('hex');
}

/**
 * The file names of `names` in one folder, each its `portableFileName`, and never two equal
 * ignoring case: where two hash suffixes meet, the later name (in sorted order, so the same
 * every run) gets the whole hash.
 */
export function portableFileNames(
  names: Iterable<string>,
  extension: string,
  rules: FileNameRules = {},
): Map<string, string> {
  const files = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of [...new Set(names)].sort()) {
    let file = portableFileName(name, extension, rules);
    if (taken.has(file.toLowerCase())) file = portableFileName(name, extension, rules, 64);
    if (taken.has(file.toLowerCase())) throw new Error(`two names share the file name ${file}`);
    taken.add(file.toLowerCase());
    files.set(name, file);
  }
  return files;
}

/** `encodeURIComponent`, plus `*` (refused by Windows), `@` (the suffix's mark) and a dot at either end. */
function encodeSegment(name: string): string {
  return encodeURIComponent(name).replace(/\*/g, '%2A').replace(/^\./, '%2E').replace(/\.$/, '%2E');
}

function escapeFirst(stem: string): string {
  return `%${stem.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}${stem.slice(1)}`;
}
