import type { FieldType } from './field.js';
import { anyDescriptor, ok, problem } from './field.js';

/** Most tags one row may carry. */
export const MAX_TAGS = 100;
/** Longest tag. */
export const MAX_TAG_LENGTH = 100;

/**
 * `tags`: an array of distinct strings. Forms send `tags[]=a&tags[]=b` or repeated `tags=a&tags=b`
 * (one `tags=a` is one tag); JSON sends an array. Tags are trimmed; empty ones and repeats dropped.
 * Stored as a JSON array; `filter=tags=a` matches rows carrying the tag.
 */
export const tagsField: FieldType = {
  type: 'tags',
  sqlType: 'text',
  filter: 'contains',
  orderable: false,
  neverNull: true,
  parse(raw) {
    if (raw === undefined || raw === null || raw === '') return ok([]);
    const list = Array.isArray(raw) ? raw : [raw];
    const tags: string[] = [];
    for (const item of list) {
      if (typeof item !== 'string') return problem({ code: 'not_a_list' });
      const tag = item.trim();
      if (tag.length > MAX_TAG_LENGTH) return problem({ code: 'tag_too_long', max: MAX_TAG_LENGTH });
      if (tag.includes('\u0000')) return problem({ code: 'nul_character' });
      if (tag !== '' && !tags.includes(tag)) tags.push(tag);
    }
    if (tags.length > MAX_TAGS) return problem({ code: 'too_many', max: MAX_TAGS, of: 'tags' });
    return ok(tags);
  },
  parseFilter: (raw) => ok(raw.trim()),
  toStored: (value) => JSON.stringify(Array.isArray(value) ? value : []),
  serialize(stored) {
    if (typeof stored !== 'string' || stored === '') return [];
    // Not always this column's own JSON: a revision's snapshot may hold the text of an earlier
    // column of the same name (dropped, then added again as tags); such text is one tag.
    let value: unknown;
    try {
      value = JSON.parse(stored);
    } catch {
      return [stored];
    }
    return Array.isArray(value) ? value.map(String) : [];
  },
  jsonSchema(_column, use) {
    const tags = {
      type: 'array',
      items: { type: 'string', maxLength: MAX_TAG_LENGTH },
      maxItems: MAX_TAGS,
      uniqueItems: true,
    };
    if (use === 'read') return tags;
    // A form repeats the key (tags=a&tags=b); JSON may also send one tag as a string.
    return use === 'form' ? { type: 'array', items: { type: 'string' } } : { anyOf: [tags, { type: 'string' }] };
  },
  checkDescriptor: anyDescriptor,
};
