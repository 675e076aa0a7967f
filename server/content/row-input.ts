import type { ColumnValue } from '../../common/api-contract.js';
import { SYSTEM_FIELDS } from '../../common/api-contract.js';
import { shownColumns } from '../../common/field-conditions.js';
import { hasProblems, noProblems } from '../../common/field-problems.js';
import { columnForFieldName, flatMetaName, META_KEYS } from '../../common/row-fields.js';
import { AppError, validationError } from '../errors/app-error.js';
import { reportProblems } from '../fields/field.js';
import { fieldFor } from '../fields/field-registry.js';
import type { ContentType } from './content-type.js';
import { hiddenRelationRefused } from './relations.js';
import { type MetaPatch, readMetaPatch } from './seo-meta.js';

/** Set by the server (system fields, a row's pending schedule): sent back in a write body they are ignored. */
const IGNORED: ReadonlySet<string> = new Set([...SYSTEM_FIELDS, 'schedule']);
/** A row read's images' alt text, pixel size and focal point, by path (see AssetService.decorate). */
export const ROW_MEDIA_MEMBER = 'media';
const META_FIELDS: ReadonlySet<string> = new Set(['meta', ...META_KEYS.map(flatMetaName)]);

/** A write body checked against a content type's columns. */
export interface RowInput {
  /** Parsed values of the columns the body names (null = cleared). */
  values: Map<string, ColumnValue>;
  /** What the body says about SEO meta, if anything. */
  meta: MetaPatch | undefined;
}

/**
 * Parses a write body against a type's columns: each value through its column's field type,
 * unknown names refused, system fields ignored. `create` also requires every required column
 * shown for the values written (a slug may be left out: it is generated from its parent). Throws
 * one validation error naming every bad field, so a failed write changes nothing. Relations in `hidden` (the writer may not
 * read their target type, see `hiddenRelations`) are left as they are when sent empty, as the
 * writer read them, and refused (403) when sent with any value.
 */
export function parseRowInput(
  type: ContentType,
  body: unknown,
  mode: 'create' | 'update',
  hidden: ReadonlySet<string> = new Set(),
): RowInput {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('bad_request', 'The request body must be an object of field values');
  }
  const fields = body as Record<string, unknown>;
  const problems = noProblems();
  const values = new Map<string, ColumnValue>();

  for (const [rawName, raw] of Object.entries(fields)) {
    if (IGNORED.has(rawName) || META_FIELDS.has(rawName)) continue;
    // What a row read carries about its images (the media library's), unless the type has a `media` column.
    if (rawName === ROW_MEDIA_MEMBER && !type.columnsByName.has(ROW_MEDIA_MEMBER)) continue;
    const name = columnForFieldName(rawName, (column) => type.columnsByName.has(column));
    const column = type.columnsByName.get(name);
    if (!column) {
      problems[rawName] = { code: 'not_a_field', table: type.table };
      continue;
    }
    if (values.has(name)) {
      problems[rawName] = { code: 'same_field', field: name };
      continue;
    }
    const parsed = fieldFor(column.type).parse(raw, column);
    if (hidden.has(name)) {
      if (parsed.ok && parsed.value === null) continue;
      throw hiddenRelationRefused(name);
    }
    if (!parsed.ok) reportProblems(problems, rawName, parsed);
    else values.set(name, parsed.value);
  }

  const shown = shownColumns(type.columns, (column) => values.get(column) ?? null);
  for (const column of type.columns) {
    if (!column.required || column.type === 'slug' || problems[column.name]) continue;
    // A column shown on a condition is required only while shown: on create for the values written;
    // on update against the stored row, in the write's transaction (requireShownColumns).
    if (column.when && (mode === 'update' || !shown.has(column.name))) continue;
    const given = values.has(column.name);
    const value = values.get(column.name);
    if ((mode === 'create' && (!given || value === null)) || (mode === 'update' && given && value === null)) {
      problems[column.name] = { code: 'required' };
    }
  }

  const meta = readMetaPatch(fields, problems);
  if (hasProblems(problems)) throw validationError(problems);
  return { values, meta };
}
