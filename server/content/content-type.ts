import type {
  ColumnDescriptor,
  ContentTypeKind,
  ContentTypeSummary,
  PublishedColumn,
} from '../../common/api-contract.js';
import { SYSTEM_FIELDS } from '../../common/api-contract.js';
import { conditionProblem } from '../../common/field-conditions.js';
import { describeProblem, type FieldProblem } from '../../common/field-problems.js';
import { LOCALIZABLE_COLUMN_TYPES } from '../../common/locale-rules.js';
import { isIdentifier } from '../../common/naming-rules.js';
import { searchColumnsOf, slugColumnOf, titleColumnOf } from '../../common/title-rules.js';
import { indexedSearchColumnsOf } from '../db/queries/search-text-columns.js';
import type { ContentTypeRecord } from '../db/repositories/content-type-repository.js';
import { fieldFor, isColumnType } from '../fields/field-registry.js';
import { localizedColumnsOf } from '../locales/localized-values.js';

/** A registered content type, its descriptors parsed and checked once when loaded. */
export interface ContentType {
  id: string;
  slug: string;
  table: string;
  title: string;
  status: string;
  /** `single`: the type holds exactly one row (site settings, a home page), read and written without its id. */
  kind: ContentTypeKind;
  custom: boolean;
  previewPath: string | null;
  /** Rows also carry the flat `meta_title`, `meta_description`, `meta_keywords` (article-like types). */
  flatMeta: boolean;
  columns: readonly ColumnDescriptor[];
  /** Columns by name, for O(1) checks of request field names. */
  columnsByName: ReadonlyMap<string, ColumnDescriptor>;
  /** The descriptors as published: with whether each can be filtered and ordered on. */
  publishedColumns: readonly PublishedColumn[];
  /** The column whose value is a row's title, or null (see `titleColumnOf`). */
  titleColumn: string | null;
  /** The first slug column, or null. */
  slugColumn: string | null;
  /**
   * The table's columns `filter=search=` looks in, as its search index covers them: the title
   * column, the slug columns, and the search text column of each rich text and blocks column.
   */
  searchColumns: readonly string[];
  /** The type's columns `filter=search=` covers, as published (`search_columns`). */
  publishedSearchColumns: readonly string[];
  /** The columns holding a value per locale (`"localized": true`), in order; empty for most types. */
  localizedColumns: readonly ColumnDescriptor[];
}

/** Fields that can be filtered and ordered on besides the content columns. */
export const SYSTEM_SORTABLE: ReadonlySet<string> = new Set(SYSTEM_FIELDS);

/** Prefixes of tables that are SQLite's or hold Quire's own objects, never a content type's. */
const INTERNAL_TABLE = /^(?:sqlite_|quire_)/;

/**
 * Builds a content type from its registry record, refusing descriptors that break the rules. The
 * registry may come from elsewhere (a restored or hand-edited database), and its names go into SQL
 * as identifiers: a name that is not one (`a.b`, `Title`) is refused here, before any query.
 */
export function contentTypeFromRecord(record: ContentTypeRecord): ContentType {
  const refuse = (what: string, problem: FieldProblem): never => {
    throw new Error(`Content type ${record.slug}: ${what} ${describeProblem(problem)}`);
  };
  const table = JSON.stringify(record.table_name);
  if (!isIdentifier(record.table_name)) refuse(`table ${table}`, { code: 'not_an_identifier' });
  if (INTERNAL_TABLE.test(record.table_name)) refuse(`table ${table}`, { code: 'reserved' });
  const columns = parseColumns(record.columns) ?? refuse('columns', { code: 'not_a_column_list' });
  for (const column of columns) {
    if (typeof column.name !== 'string' || !isIdentifier(column.name)) {
      refuse(`column ${JSON.stringify(column.name)}`, { code: 'not_an_identifier' });
    }
    if (!isColumnType(column.type)) {
      throw new Error(`Content type ${record.slug}: column ${column.name} has unknown type ${column.type}`);
    }
    const problem =
      localizedProblem(column) ??
      fieldFor(column.type).checkDescriptor(column, columns) ??
      conditionProblem(column, columns);
    if (problem) throw new Error(`Content type ${record.slug}: column ${column.name} ${describeProblem(problem)}`);
  }
  return {
    id: record.id,
    slug: record.slug,
    table: record.table_name,
    title: record.title,
    status: record.status,
    kind: record.type === 'single' ? 'single' : 'collection',
    custom: record.custom === 1,
    previewPath: record.preview_path,
    flatMeta: record.flat_meta === 1,
    ...columnFacts(columns),
  };
}

/** Why a stored descriptor's `localized` cannot stand (it was edited outside Quire), or null. */
function localizedProblem(column: ColumnDescriptor): FieldProblem | null {
  if (column.localized === undefined || (column.localized === true && LOCALIZABLE_COLUMN_TYPES.has(column.type))) {
    return null;
  }
  return column.localized === true ? { code: 'not_localizable', type: column.type } : { code: 'not_a_boolean' };
}

/** A type with a changed title, kind, preview path and columns (checked already), as its record would read. */
export function changedContentType(
  type: ContentType,
  change: { title: string; kind: ContentTypeKind; previewPath: string | null; columns: readonly ColumnDescriptor[] },
): ContentType {
  return {
    ...type,
    title: change.title,
    kind: change.kind,
    previewPath: change.previewPath,
    ...columnFacts(change.columns),
  };
}

/** What a type's columns decide: the lookups, the published descriptors, title, slug and search columns. */
function columnFacts(columns: readonly ColumnDescriptor[]) {
  return {
    columns,
    columnsByName: new Map(columns.map((column) => [column.name, column])),
    publishedColumns: columns.map(publishColumn),
    titleColumn: titleColumnOf(columns),
    slugColumn: slugColumnOf(columns),
    searchColumns: indexedSearchColumnsOf(columns),
    publishedSearchColumns: searchColumnsOf(columns),
    localizedColumns: localizedColumnsOf(columns),
  };
}

/** The descriptors of a registry record, or null when they are not a non-empty list of objects. */
function parseColumns(text: string): ColumnDescriptor[] | null {
  let columns: unknown;
  try {
    columns = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(columns) || columns.length === 0) return null;
  if (!columns.every((column) => column !== null && typeof column === 'object' && !Array.isArray(column))) return null;
  return columns as ColumnDescriptor[];
}

/** The public description of a type (without rows). */
export function summarize(type: ContentType): ContentTypeSummary {
  return {
    content_type_id: type.id,
    type: type.kind,
    table: type.table,
    title: type.title,
    status: type.status,
    slug: type.slug,
    columns: [...type.publishedColumns],
    custom: type.custom,
    preview_path: type.previewPath,
    title_column: type.titleColumn,
    search_columns: [...type.publishedSearchColumns],
  };
}

/** A descriptor with what its field type allows (the `FieldType` registry decides). */
export function publishColumn(column: ColumnDescriptor): PublishedColumn {
  const field = fieldFor(column.type);
  return { ...column, filterable: field.filter !== 'none', orderable: field.orderable };
}
