import { MAX_SLUG_LENGTH } from '../../common/slug-rules.js';
import { slugify } from '../content/slugs.js';
import type { FieldType } from './field.js';
import { ok, parseText, problem, storedAsIs, storedText } from './field.js';

/**
 * `slug`: a URL slug derived from its `parent` column. A given value is normalised the same way as a
 * generated one; an absent value (null) is filled in from the parent by the content service.
 */
export const slugField: FieldType = {
  type: 'slug',
  sqlType: 'text',
  filter: 'equals',
  orderable: true,
  parse(raw) {
    return parseText(raw, (text) => {
      const slug = slugify(text);
      return slug === '' ? problem({ code: 'no_letters' }) : ok(slug);
    });
  },
  parseFilter: (raw) => ok(raw),
  toStored: storedAsIs,
  serialize: storedText,
  jsonSchema(column, use) {
    const derived = `made from ${column.parent} when not given`;
    if (use !== 'read')
      return { type: 'string', description: `A URL slug (normalised to lowercase a-z, 0-9 and hyphens); ${derived}` };
    return {
      type: 'string',
      pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
      maxLength: MAX_SLUG_LENGTH,
      description: `A URL slug, ${derived}`,
    };
  },
  checkDescriptor(column, all) {
    if (!column.parent) return { code: 'no_parent' };
    const parent = all.find((other) => other.name === column.parent);
    if (!parent) return { code: 'unknown_parent', parent: column.parent };
    if (parent.type === 'slug') return { code: 'parent_is_slug' };
    return null;
  },
};
