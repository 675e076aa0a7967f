import type { ColumnDescriptor, ContentTypeSummary } from '../contract/api-contract.js';
import { SYSTEM_FIELDS } from '../contract/api-contract.js';
import type { ContentTypeRecord } from '../db/content-type-repository.js';
import { fieldFor, isColumnType } from '../fields/field-registry.js';

/** A registered content type, its descriptors parsed and checked once when loaded. */
export interface ContentType {
  id: string;
  slug: string;
  table: string;
  title: string;
  status: string;
  custom: boolean;
  previewPath: string | null;
  /** Rows also carry the flat `meta_title`, `meta_description`, `meta_keywords` (article-like types). */
  flatMeta: boolean;
  columns: readonly ColumnDescriptor[];
  /** Columns by name, for O(1) checks of request field names. */
  columnsByName: ReadonlyMap<string, ColumnDescriptor>;
  /** Columns searched by `filter=search=`: those named title and slug the type has. */
  searchColumns: readonly string[];
}

/** Fields that can be filtered and ordered on besides the content columns. */
export const SYSTEM_SORTABLE: ReadonlySet<string> = new Set(SYSTEM_FIELDS);

/** Columns searched by `filter=search=`: those named title and slug among `columns`. */
export function searchColumnsOf(columns: readonly ColumnDescriptor[]): string[] {
  return ['title', 'slug'].filter((name) => columns.some((column) => column.name === name));
}

/** Builds a content type from its registry record, refusing descriptors that break the rules. */
export function contentTypeFromRecord(record: ContentTypeRecord): ContentType {
  const columns = JSON.parse(record.columns) as ColumnDescriptor[];
  for (const column of columns) {
    if (!isColumnType(column.type)) {
      throw new Error(`Content type ${record.slug}: column ${column.name} has unknown type ${column.type}`);
    }
    const problems = fieldFor(column.type).checkDescriptor(column, columns);
    if (problems.length > 0)
      throw new Error(`Content type ${record.slug}: column ${column.name}: ${problems.join('; ')}`);
  }
  return {
    id: record.id,
    slug: record.slug,
    table: record.table_name,
    title: record.title,
    status: record.status,
    custom: record.custom === 1,
    previewPath: record.preview_path,
    flatMeta: record.flat_meta === 1,
    columns,
    columnsByName: new Map(columns.map((column) => [column.name, column])),
    searchColumns: searchColumnsOf(columns),
  };
}

/** The public description of a type (without rows). */
export function summarize(type: ContentType): ContentTypeSummary {
  return {
    content_type_id: type.id,
    type: 'collection',
    table: type.table,
    title: type.title,
    status: type.status,
    slug: type.slug,
    columns: [...type.columns],
    custom: type.custom,
    preview_path: type.previewPath,
  };
}
