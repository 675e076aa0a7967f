/** Tones of badges; each has a light and a dark-mode colour pair in the stylesheet. */
type Tone = 'green' | 'gray' | 'amber' | 'blue' | 'red' | 'violet' | 'teal';

/** Well-known status values get the colour people expect; others a stable colour from their id. */
const KNOWN: Readonly<Record<string, Tone>> = {
  published: 'green',
  live: 'green',
  active: 'green',
  public: 'green',
  draft: 'gray',
  inactive: 'gray',
  hidden: 'gray',
  archived: 'amber',
  scheduled: 'blue',
  review: 'blue',
  pending: 'blue',
  deleted: 'red',
  rejected: 'red',
};
const OTHERS: readonly Tone[] = ['violet', 'teal', 'blue', 'amber', 'green'];

function toneOf(id: string): Tone {
  const known = KNOWN[id.toLowerCase()];
  if (known) return known;
  let hash = 0;
  for (const char of id) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return OTHERS[hash % OTHERS.length];
}

/** A select value shown as a coloured pill (status: draft, published, archived...). */
export function StatusBadge({ id, text }: { id: string; text: string }) {
  return (
    <span className={`badge badge-${toneOf(id)}`} data-value={id}>
      <span className="badge-dot" aria-hidden="true" />
      {text}
    </span>
  );
}
