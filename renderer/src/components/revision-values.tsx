import type { ColumnDescriptor, RelationValue, SeoMeta } from '../../../common/api-contract.js';
import { richtextText } from '../../../common/richtext-rules.js';
import { i18n } from '../i18n/i18n-instance.js';
import { useT } from '../i18n/use-t.js';
import { type DiffSide, WordDiff } from './word-diff.js';

/** Column types whose values are compared word by word (Markdown as its text). */
const TEXT_TYPES = new Set(['text', 'textarea', 'markdown', 'slug']);

/** What a comparison row shows: a field's label and its value in the two versions. */
export interface ComparedField {
  name: string;
  label: string;
  column: ColumnDescriptor | null;
  old: unknown;
  current: unknown;
}

/** Whether two values of a field differ (compared as JSON, as the server compares them). */
export function differs(field: ComparedField): boolean {
  return JSON.stringify(field.old ?? null) !== JSON.stringify(field.current ?? null);
}

/**
 * One side of a field in the side-by-side comparison: text word by word against the other side,
 * an image as a thumbnail, a relation by its row's title, tags as a list, meta member by member.
 */
export function RevisionValue({ field, side }: { field: ComparedField; side: DiffSide }) {
  const value = side === 'old' ? field.old : field.current;
  const other = side === 'old' ? field.current : field.old;
  if (value === null || value === undefined || value === '') return <span className="muted">—</span>;
  const { column } = field;
  if (field.name === 'meta') return <MetaValue meta={value as SeoMeta} other={other as SeoMeta | null} side={side} />;
  if (column?.type === 'richtext' && typeof value === 'string') {
    // Rich text is compared as its text, a line per block: a tag is not a change a reader sees.
    const text = (html: unknown) => (typeof html === 'string' ? richtextText(html) : '');
    const from = side === 'old' ? text(value) : text(other);
    const to = side === 'old' ? text(other) : text(value);
    return <WordDiff from={from} to={to} side={side} />;
  }
  if (column && TEXT_TYPES.has(column.type) && typeof value === 'string') {
    const from = side === 'old' ? value : typeof other === 'string' ? other : '';
    const to = side === 'old' ? (typeof other === 'string' ? other : '') : value;
    return <WordDiff from={from} to={to} side={side} />;
  }
  if (column?.type === 'image' && typeof value === 'string') {
    return (
      <span className="revision-image">
        <img src={value} alt="" className="revision-thumb" loading="lazy" />
        <span className="mono">{value.split('/').pop()}</span>
      </span>
    );
  }
  if (column?.type === 'relation' && typeof value === 'object') {
    const related = value as RelationValue;
    return <span>{related.title ?? related.slug ?? related.id}</span>;
  }
  if (column?.type === 'select') {
    return <span>{column.options?.find((option) => option.id === value)?.text ?? String(value)}</span>;
  }
  if (column?.type === 'boolean') return <span>{i18n.t(value ? 'common:yes' : 'common:no')}</span>;
  if (Array.isArray(value)) return <span>{value.join(', ')}</span>;
  return <span>{String(value)}</span>;
}

const META_KEYS = ['title', 'description', 'keywords'] as const;

function MetaValue({ meta, other, side }: { meta: SeoMeta; other: SeoMeta | null; side: DiffSide }) {
  const t = useT('components');
  return (
    <dl className="revision-meta">
      {META_KEYS.map((key) => {
        const mine = meta[key] ?? '';
        const theirs = other?.[key] ?? '';
        return (
          <div key={key}>
            <dt>{t(`seo.${key}`)}</dt>
            <dd>
              <WordDiff from={side === 'old' ? mine : theirs} to={side === 'old' ? theirs : mine} side={side} />
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
