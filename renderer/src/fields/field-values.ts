/** A form value as the text an input shows: strings as they are, numbers and booleans as text, else ''. */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A write-body value of a text-like input: trimmed-empty text clears the field (null). */
export function textToBody(value: unknown): string | null {
  const text = asText(value);
  return text.trim() === '' ? null : text;
}

/** A short readable form of any row value for a list cell (arrays joined, related rows by title). */
export function summarize(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(summarize).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of ['title', 'name', 'label', 'slug', 'id']) {
      if (typeof record[key] === 'string') return record[key] as string;
    }
    return JSON.stringify(value);
  }
  return String(value);
}
