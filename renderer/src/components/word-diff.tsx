import { diffWords } from 'diff';

/** Which side of a comparison a text is shown on. */
export type DiffSide = 'old' | 'new';

/**
 * One side of a word-level comparison: on the old side the words the new text no longer has are
 * marked as removed, on the new side the words it added are marked as inserted; the rest reads as
 * it is. Markdown is compared as its text.
 */
export function WordDiff({ from, to, side }: { from: string; to: string; side: DiffSide }) {
  const parts = diffWords(from, to);
  return (
    <span className="word-diff">
      {parts.map((part, index) => {
        const key = `${index}:${part.value.length}`;
        if (part.removed) return side === 'old' ? <del key={key}>{part.value}</del> : null;
        if (part.added) return side === 'new' ? <ins key={key}>{part.value}</ins> : null;
        return <span key={key}>{part.value}</span>;
      })}
    </span>
  );
}
