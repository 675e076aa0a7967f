/** The members of a row's SEO meta, in order. */
export const META_KEYS = ['title', 'description', 'keywords'] as const;

/** One member of SEO meta. */
export type MetaKey = (typeof META_KEYS)[number];

/** The flat write-body name of a meta member (`meta_title`), which article-like rows also carry. */
export function flatMetaName(key: MetaKey): `meta_${MetaKey}` {
  return `meta_${key}`;
}

/** The nested form-body name of a meta member (`meta[title]`). */
export function nestedMetaName(key: MetaKey): `meta[${MetaKey}]` {
  return `meta[${key}]`;
}

/**
 * Other names a write body may use for a column, and the column they stand for (the spec's write
 * responses name `published_at` as `publish_at`). The alias applies only where the type has no
 * column of the alias's own name.
 */
export const FIELD_ALIASES: Readonly<Record<string, string>> = { publish_at: 'published_at' };

/** The column a write-body name stands for among `columns`: itself, or what its alias names. */
export function columnForFieldName(name: string, hasColumn: (name: string) => boolean): string {
  if (hasColumn(name) || !Object.hasOwn(FIELD_ALIASES, name)) return name;
  return FIELD_ALIASES[name];
}
