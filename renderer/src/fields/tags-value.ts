/** The tags of a row value: its strings (anything else reads as no tags). */
export function tagsFromRow(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === 'string') : [];
}

/**
 * The tags after adding typed or pasted text: split at commas and line breaks, trimmed, empty ones
 * and repeats dropped, as the server stores them. Returns the same array when nothing was added.
 */
export function addTags(tags: readonly string[], text: string): string[] {
  const added = text
    .split(/[,\n]/)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
  const next = [...tags];
  for (const tag of added) if (!next.includes(tag)) next.push(tag);
  return next.length === tags.length ? (tags as string[]) : next;
}

/** The tags without the one at `index`. */
export function removeTagAt(tags: readonly string[], index: number): string[] {
  return tags.filter((_tag, at) => at !== index);
}
