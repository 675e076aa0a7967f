import { COLUMN_DESCRIPTOR_KEYS, type ColumnDescriptorKey } from '../../../common/api-contract.js';
import type { FieldProblem } from '../../../common/field-problems.js';
import { tableFromSlug } from '../../../common/naming-rules.js';
import { typeSlugCandidates } from '../../../common/type-slug-suggestions.js';
import type { FieldDraft } from './type-draft.js';

/** The inputs of a field that can carry a problem of their own: each member of its descriptor. */
export type FieldPart = ColumnDescriptorKey;
const FIELD_PARTS: readonly string[] = COLUMN_DESCRIPTOR_KEYS;

/** The type's own inputs. */
export type TypePart = 'title' | 'slug' | 'table' | 'type' | 'preview_path';
const TYPE_PARTS: readonly string[] = ['title', 'slug', 'table', 'type', 'preview_path'];

/** A content-type save's problems, placed where the screen shows them. */
export interface TypeErrors {
  type: Partial<Record<TypePart, string>>;
  /** By field key: problems of one input, and problems of the field as a whole (`general`). */
  fields: Record<string, Partial<Record<FieldPart | 'general', string>>>;
  /** Problems with no input to show them at, as sentences. */
  other: string[];
}

/** No problems. */
export const NO_TYPE_ERRORS: TypeErrors = { type: {}, fields: {}, other: [] };

/**
 * Places the server's `fields` of a failed save: `columns[2].name` at the name input of the third
 * field sent, `columns[2]` on that field as a whole, a column's name (renames, type changes, used
 * options) on that field, `title`/`slug`/`table`/`preview_path` at the type's inputs. A problem
 * inside a blocks field's block types (`columns[1].blocks[0].columns[2].type`) goes to its block
 * types, with the rest of its path.
 * `sent` are the fields in the order the request listed them. A name can mean both a type input and
 * a column (`slug`): an update keys its column problems by name, a create its type problems.
 */
export function placeTypeErrors(
  problems: Readonly<Record<string, string>>,
  sent: readonly FieldDraft[],
  mode: 'create' | 'update',
): TypeErrors {
  const placed: TypeErrors = { type: {}, fields: {}, other: [] };
  const onField = (field: FieldDraft, part: FieldPart | 'general', problem: string) => {
    const current = placed.fields[field.key] ?? {};
    current[part] = current[part] ? `${current[part]}; ${problem}` : problem;
    placed.fields[field.key] = current;
  };
  for (const [key, problem] of Object.entries(problems)) {
    const inBlocks = /^columns\[(\d+)\]\.blocks(\[.+)$/.exec(key);
    const holder = inBlocks ? sent[Number(inBlocks[1])] : undefined;
    if (inBlocks && holder) {
      onField(holder, 'blocks', `${inBlocks[2]} ${problem}`);
      continue;
    }
    const indexed = /^columns\[(\d+)\](?:\.(\w+))?$/.exec(key);
    const byIndex = indexed ? sent[Number(indexed[1])] : undefined;
    const byName = sent.find((field) => field.name === key);
    const typePart = TYPE_PARTS.includes(key) ? (key as TypePart) : undefined;
    if (byIndex) {
      const part = indexed?.[2];
      onField(byIndex, part && FIELD_PARTS.includes(part) ? (part as FieldPart) : 'general', problem);
    } else if (byName && (mode === 'update' || !typePart)) {
      onField(byName, 'general', problem);
    } else if (typePart) {
      placed.type[typePart] = problem;
    } else {
      placed.other.push(`${key} ${problem}`);
    }
  }
  return placed;
}

/** How many inputs and fields the errors mark. */
export function countTypeErrors(errors: TypeErrors): number {
  return (
    Object.keys(errors.type).length +
    Object.values(errors.fields).reduce((sum, parts) => sum + Object.keys(parts).length, 0)
  );
}

/** A server problem as a sentence of its own: `a select needs…` → `A select needs….` */
export function asSentence(problem: string): string {
  const text = problem.trim();
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** A new type's slug or table that another type holds: that type, and a free slug the server proposes. */
export interface TakenName {
  part: 'slug' | 'table';
  /** The holding type's slug and title. */
  type: string;
  title: string;
  suggestion: string | null;
}

/** The holder of a taken slug or table, from a refused create's problems (as data), or null. */
export function takenNameOf(problems: Readonly<Record<string, FieldProblem>>): TakenName | null {
  for (const part of ['slug', 'table'] as const) {
    const problem = problems[part];
    if (problem?.code === 'taken' && problem.type !== undefined) {
      return { part, type: problem.type, title: problem.title ?? problem.type, suggestion: problem.suggestion ?? null };
    }
  }
  return null;
}

/**
 * A new type's slug or table that one of the loaded `types` holds, with the first proposed slug none
 * of them holds: said while the user types, before the server would refuse the save.
 */
export function takenByLoaded(
  slug: string,
  table: string,
  types: readonly { slug: string; table: string; title: string }[],
): TakenName | null {
  if (slug === '') return null;
  const bySlug = types.find((type) => type.slug === slug);
  const holder = bySlug ?? types.find((type) => type.table === table);
  if (!holder) return null;
  const held = (candidate: string) =>
    types.some((type) => type.slug === candidate || type.table === tableFromSlug(candidate));
  const suggestion = typeSlugCandidates(slug).find((candidate) => !held(candidate)) ?? null;
  return { part: bySlug ? 'slug' : 'table', type: holder.slug, title: holder.title, suggestion };
}
