import type { SeoMeta } from '../../common/api-contract.js';
import type { FieldProblems } from '../../common/field-problems.js';
import { flatMetaName, META_KEYS, type MetaKey, nestedMetaName } from '../../common/row-fields.js';
import type { StoredRow } from '../db/repositories/content-repository.js';

/** Longest value of one meta member. */
export const MAX_META_LENGTH = 10_000;

/** What a write says about meta: members to set, or `null` to clear all of it. */
export type MetaPatch = Partial<SeoMeta> | null;

/**
 * Reads meta from a write body: nested `meta[title]` (form) or `meta: {...}` (JSON), or the flat
 * `meta_title`, `meta_description`, `meta_keywords`. Returns undefined when the body says nothing
 * about meta; records problems in `problems` keyed like the request fields.
 */
export function readMetaPatch(body: Record<string, unknown>, problems: FieldProblems): MetaPatch | undefined {
  let patch: MetaPatch | undefined;
  if (Object.hasOwn(body, 'meta')) {
    const nested = body.meta;
    if (nested === null || nested === '') {
      patch = null;
    } else if (typeof nested === 'object' && !Array.isArray(nested)) {
      patch = {};
      for (const [key, value] of Object.entries(nested as Record<string, unknown>)) {
        if (!(META_KEYS as readonly string[]).includes(key)) {
          problems[`meta[${key}]`] = { code: 'not_a_meta_member' };
          continue;
        }
        setMember(patch, key as MetaKey, value, nestedMetaName(key as MetaKey), problems);
      }
    } else {
      problems.meta = { code: 'not_meta' };
    }
  }
  for (const key of META_KEYS) {
    const flat = flatMetaName(key);
    if (!Object.hasOwn(body, flat)) continue;
    patch ??= {};
    if (patch === null) {
      problems[flat] = { code: 'meta_cleared' };
      continue;
    }
    setMember(patch, key, body[flat], flat, problems);
  }
  return patch;
}

function setMember(patch: Partial<SeoMeta>, key: MetaKey, value: unknown, name: string, problems: FieldProblems): void {
  if (value === null || value === undefined) {
    patch[key] = '';
  } else if (typeof value !== 'string') {
    problems[name] = { code: Array.isArray(value) ? 'repeated' : 'not_text' };
  } else if (value.length > MAX_META_LENGTH) {
    problems[name] = { code: 'too_long', max: MAX_META_LENGTH };
  } else {
    patch[key] = value;
  }
}

/** Applies a patch to the stored meta; an object with every member empty becomes null. */
export function applyMetaPatch(current: SeoMeta | null, patch: MetaPatch): SeoMeta | null {
  if (patch === null) return null;
  const next: SeoMeta = {
    title: patch.title ?? current?.title ?? '',
    description: patch.description ?? current?.description ?? '',
    keywords: patch.keywords ?? current?.keywords ?? '',
  };
  return META_KEYS.every((key) => next[key] === '') ? null : next;
}

/** Parses stored meta JSON. */
export function parseStoredMeta(stored: unknown): SeoMeta | null {
  if (typeof stored !== 'string' || stored === '') return null;
  const value = JSON.parse(stored) as Partial<SeoMeta>;
  return { title: value.title ?? '', description: value.description ?? '', keywords: value.keywords ?? '' };
}

/**
 * The page's SEO meta as a site would render it: each member from the row's meta, else the title
 * from the row's title column, the description from its `description` column, keywords from its `tags`.
 * A row read in a locale gives them in that locale; one read in every locale (`locale=all`, its
 * localized fields objects keyed by locale) gives them in `locale`, the site's default.
 */
export function resolvePageMeta(
  row: StoredRow,
  meta: SeoMeta | null,
  titleColumn: string | null,
  locale?: string,
): SeoMeta {
  const inLocale = (value: unknown): unknown =>
    locale !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)[locale]
      : value;
  const text = (value: unknown): string => {
    const shown = inLocale(value);
    return typeof shown === 'string' ? shown : '';
  };
  const tags = (listed: unknown): string => {
    const value = inLocale(listed);
    if (Array.isArray(value)) return value.join(', ');
    if (typeof value === 'string' && value.startsWith('[')) {
      try {
        return (JSON.parse(value) as string[]).join(', ');
      } catch {
        return '';
      }
    }
    return '';
  };
  return {
    title: meta?.title || text(titleColumn === null ? undefined : row[titleColumn]),
    description: meta?.description || text(row.description),
    keywords: meta?.keywords || tags(row.tags),
  };
}
