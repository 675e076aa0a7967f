import type { ColumnDescriptor, ErrorCode } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES, LOCALIZABLE_COLUMN_TYPES } from '../../common/locale-rules.js';
import { META_KEYS } from '../../common/row-fields.js';
import type { ContentType } from '../content/content-type.js';
import { ROW_MEDIA_MEMBER } from '../content/row-input.js';
import { MAX_META_LENGTH } from '../content/seo-meta.js';
import { AppError } from '../errors/app-error.js';
import type { JsonSchema } from '../fields/field.js';
import { COLUMN_TYPES, columnSchema } from '../fields/field-registry.js';
import { localizedColumnsOf } from '../locales/localized-values.js';
import { UPLOAD_MEDIA_TYPES } from '../media/image-sniffing.js';
import { rowCarriesMedia } from '../media/row-media-paths.js';
import { allLocalesShapeNames, shapeNames } from '../types-gen/type-names.js';
import {
  allLocalesMembers,
  hasLocalizedColumns,
  inAllLocales,
  inOneLocale,
  oneLocaleMembers,
  requiredOnCreate,
} from './openapi-localized-schemas.js';

/** A reference to a component schema. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const string: JsonSchema = { type: 'string' };
const integer: JsonSchema = { type: 'integer', minimum: 0 };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };

/** A row's pending change, as every row read carries it (RowSchedule is in openapi-publishing-paths). */
const SCHEDULE_PROPERTY: JsonSchema = {
  anyOf: [{ $ref: '#/components/schemas/RowSchedule' }, { type: 'null' }],
  description: 'The row’s pending scheduled change, or null (on reads; not on write answers)',
};

/** A read row's images by path (image columns, and images in rich text, Markdown and blocks): alt text, pixels and focal point. */
const MEDIA_PROPERTY: JsonSchema = {
  type: 'object',
  description:
    'For each image the row shows (image fields, and images in rich text, Markdown and blocks), keyed by its path: what lays it out (on reads; rows with images)',
  additionalProperties: ref('ImageLayout'),
};

/** `schema` with more properties that may be left out. */
function withOptional(schema: JsonSchema, properties: Record<string, JsonSchema>): JsonSchema {
  return { ...schema, properties: { ...(schema.properties as Record<string, JsonSchema>), ...properties } };
}

/** An object whose listed members are all present and which has no others. */
function exactObject(properties: Record<string, JsonSchema>, description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties,
    required: Object.keys(properties),
    additionalProperties: false,
  };
}

/** A column's `when`: the column it depends on and exactly one operator (common/field-conditions.ts). */
function conditionSchema(): JsonSchema {
  const field = { ...string, description: 'The name of another column of the type' };
  const values = {
    type: 'array',
    items: { anyOf: [{ type: 'string', minLength: 1, maxLength: 200 }, { type: 'number' }, { type: 'boolean' }] },
    minItems: 1,
    maxItems: 100,
    uniqueItems: true,
    description:
      'Option ids of a select, true/false of a boolean, numbers of a number, strings of a text, slug, tags or relation',
  };
  return {
    description: 'The condition a column is shown and required on',
    oneOf: [
      exactObject({
        field,
        is: { ...values, description: `Holds when the value is one of these. ${values.description}` },
      }),
      exactObject({
        field,
        isNot: { ...values, description: `Holds when the value is none of these. ${values.description}` },
      }),
      exactObject({ field, empty: { const: true, description: 'Holds when the value is empty' } }),
      exactObject({ field, notEmpty: { const: true, description: 'Holds when the value is not empty' } }),
    ],
  };
}

/** Every error code and what it means (its status comes from AppError). */
const ERROR_MEANINGS = {
  bad_request: 'The request is malformed: an unknown query parameter, a bad filter, a body that is not valid JSON',
  validation_failed: 'One or more fields are invalid; `problems` says which and why',
  unauthorized: 'The server requires its API token: send Authorization: Bearer <token>',
  forbidden: 'The request came from a page of another origin that is not allowed',
  not_found: 'No such content type, row, path or media file',
  method_not_allowed: 'The path does not take this method',
  misdirected_request: 'The Host header names a host this server does not serve',
  conflict: 'The write clashes with what is stored (an id or slug in use, a row still referenced)',
  payload_too_large: 'The body or the upload is larger than the server accepts',
  unsupported_media_type:
    'The body is neither application/x-www-form-urlencoded nor application/json (uploads: not an image)',
  internal_error: 'Something failed on the server; a read changed nothing, a write was not saved',
  database_unavailable: 'The database cannot be reached right now; nothing was changed. Retry later',
  too_many_requests: 'Too many attempts in a short time; wait, then retry',
  two_factor_enrolment_required:
    'The server requires two-factor sign-in for this account: enrol (/account/two-factor) before anything else',
  bad_cursor: 'The change-feed cursor is not one this database gave; start again with since=0',
  cursor_expired:
    'The change-feed cursor is older than the changes kept: read everything again, then follow the feed from its head',
  single_row_type:
    'The content type is single: its one row is changed with PUT /cms/{table}, never created with POST or deleted; or a collection holding more than one row cannot become single',
  stale_write:
    'If-Match names a version that is no longer stored; nothing was written. `current`, `etag` and `last_change` say what is stored now',
} as const;

/** Fails to compile when an error code has no meaning above. */
type Unexplained = Exclude<ErrorCode, keyof typeof ERROR_MEANINGS>;
const everyCodeExplained: [Unexplained] extends [never] ? true : Unexplained = true;
void everyCodeExplained;

/** The codes the server has, each with its status. */
function errorStatuses(): [ErrorCode, number][] {
  const found: [ErrorCode, number][] = [];
  for (const code of Object.keys(ERROR_MEANINGS) as ErrorCode[]) {
    const { status } = new AppError(code, '');
    if (typeof status === 'number') found.push([code, status]);
  }
  return found;
}

/** The error codes a status stands for, by status. */
export function errorCodesByStatus(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [code, status] of errorStatuses()) byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  return byStatus;
}

/** What an error code means, for the document's descriptions. */
export const errorMeaning = (code: ErrorCode): string => (ERROR_MEANINGS as Record<string, string>)[code];

const TIMESTAMP: JsonSchema = {
  type: 'string',
  pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?$',
  description: 'Set by the server: UTC, YYYY-MM-DD HH:MM:SS.ffffff',
};

const SYSTEM_PROPERTIES: Record<string, JsonSchema> = {
  created_at: TIMESTAMP,
  updated_at: TIMESTAMP,
  created_by: { ...stringOrNull, description: 'Who created the row (the editor name of the server that wrote it)' },
  updated_by: { ...stringOrNull, description: 'Who last changed the row' },
};

/** The shapes every content type shares: errors, timing, columns, content types, uploads. */
export function sharedSchemas(): Record<string, JsonSchema> {
  const column: Record<string, JsonSchema> = {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    label: string,
    type: { type: 'string', enum: [...COLUMN_TYPES] },
    required: { type: 'boolean' },
    parent: { ...string, description: 'For slug columns: the column the slug is made from' },
    options: { type: 'array', items: ref('SelectOption'), description: 'For select columns: the choices' },
    target: { ...string, description: 'For relation columns: the slug of the content type it points at' },
    blocks: {
      type: 'array',
      items: ref('BlockType'),
      description: 'For blocks columns: the block types a value may hold, each with its own columns',
    },
    when: {
      ...ref('FieldCondition'),
      description:
        'When the column is shown in the editor and required: while the condition holds on the row. Hidden, its value is kept',
    },
    localized: {
      type: 'boolean',
      description: `A value per locale (${[...LOCALIZABLE_COLUMN_TYPES].join(', ')} columns); other columns are shared by every locale`,
    },
  };
  const columnRequired = ['name', 'label', 'type', 'required'];
  const summary: Record<string, JsonSchema> = {
    content_type_id: string,
    type: {
      type: 'string',
      enum: ['collection', 'single'],
      description: '`single`: the type holds one row, read and written at /cms/{table}',
    },
    table: { ...string, description: 'The :type segment of /api/cms/:type' },
    title: string,
    status: string,
    slug: string,
    columns: { type: 'array', items: ref('PublishedColumn') },
    custom: { type: 'boolean' },
    preview_path: stringOrNull,
    title_column: stringOrNull,
    search_columns: { type: 'array', items: string },
  };
  const { preview_path: _previewPath, ...described } = summary;
  return {
    FieldProblem: {
      type: 'object',
      description: 'One problem as data: a code and its parameters (`{ "code": "too_long", "max": 100 }`)',
      properties: { code: string },
      required: ['code'],
      additionalProperties: true,
    },
    RowReference: exactObject({ table: string, id: string, title: stringOrNull, column: string }),
    ErrorBody: exactObject({
      error: {
        type: 'object',
        properties: {
          status: { type: 'integer', minimum: 400, maximum: 599 },
          code: { type: 'string', enum: errorStatuses().map(([code]) => code) },
          message: string,
          fields: { type: 'object', additionalProperties: string, description: 'Each field’s problem, for people' },
          problems: { type: 'object', additionalProperties: ref('FieldProblem') },
          detail: ref('FieldProblem'),
          references: {
            type: 'array',
            items: ref('RowReference'),
            maxItems: 20,
            description: 'Rows still pointing at a row whose delete was refused, in content types the caller may read',
          },
          other_references: {
            type: 'integer',
            minimum: 1,
            description: 'How many more rows point at it from content types the caller may not read (never named)',
          },
          current: {
            description: 'For stale_write: what is stored now, as its read answers it (null: it no longer exists)',
          },
          etag: { ...stringOrNull, description: 'For stale_write: the ETag of `current`' },
          last_change: {
            anyOf: [
              exactObject({ action: string, by: stringOrNull, at: string, fields: { type: 'array', items: string } }),
              { type: 'null' },
            ],
            description: 'For stale_write: who last changed it, when, and which fields',
          },
        },
        required: ['status', 'code', 'message'],
        additionalProperties: false,
      },
    }),
    Timing: exactObject(
      Object.fromEntries(
        ['total', 'init', 'filter', 'data', 'count', 'format'].map((name) => [name, { type: 'number' }]),
      ),
      'Milliseconds spent in each phase of the read (also sent as Server-Timing)',
    ),
    SeoMeta: exactObject(Object.fromEntries(META_KEYS.map((key) => [key, string]))),
    RelationValue: exactObject({ id: string, title: stringOrNull, slug: stringOrNull }),
    SelectOption: exactObject({ id: { type: 'string', minLength: 1 }, text: string }),
    FieldCondition: conditionSchema(),
    BlockType: exactObject({
      name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
      label: string,
      columns: { type: 'array', items: ref('ColumnDescriptor') },
    }),
    ColumnDescriptor: {
      type: 'object',
      properties: {
        ...column,
        from: { ...string, description: 'In a content-type update: the old name of a renamed column' },
      },
      required: columnRequired,
      additionalProperties: false,
    },
    PublishedColumn: {
      type: 'object',
      properties: { ...column, filterable: { type: 'boolean' }, orderable: { type: 'boolean' } },
      required: [...columnRequired, 'filterable', 'orderable'],
      additionalProperties: false,
    },
    ContentTypeSummary: exactObject(summary),
    ContentTypeListResponse: exactObject({
      count: integer,
      content_types: {
        type: 'array',
        items: exactObject({
          ...summary,
          version: { ...string, description: "The type's ETag: If-Match on its change and delete" },
        }),
      },
    }),
    ContentRow: {
      type: 'object',
      description: 'A row of any content type: its id, one member per column, meta and the system fields',
      properties: { id: string, meta: { anyOf: [ref('SeoMeta'), { type: 'null' }] }, ...SYSTEM_PROPERTIES },
      required: ['id', 'meta', ...Object.keys(SYSTEM_PROPERTIES)],
      additionalProperties: true,
    },
    ContentTypeResponse: exactObject({ ...described, rows: { type: 'array', items: ref('ContentRow') } }),
    ContentTypeRequest: {
      type: 'object',
      properties: {
        title: string,
        slug: { ...string, description: 'Made from the title when not given (create only)' },
        table: { ...string, description: 'Made from the slug when not given (create only)' },
        type: {
          type: 'string',
          enum: ['collection', 'single'],
          default: 'collection',
          description: '`single` holds one row; a collection holding more than one cannot become single (409)',
        },
        columns: {
          type: 'array',
          items: ref('ColumnDescriptor'),
          description:
            'The whole new list: columns matched by name or `from` keep their data, new ones are added, left-out ones are removed',
        },
        preview_path: stringOrNull,
      },
      additionalProperties: false,
    },
    ContentTypeForm: {
      type: 'object',
      properties: {
        title: string,
        slug: string,
        table: string,
        type: { type: 'string', enum: ['collection', 'single'] },
        columns: { ...string, description: 'The columns as JSON text' },
        preview_path: string,
      },
      additionalProperties: false,
    },
    UploadResponse: {
      type: 'object',
      properties: {
        path: { ...columnSchema({ name: 'image', label: '', type: 'image', required: true }, 'read') },
        type: { type: 'string', enum: [...UPLOAD_MEDIA_TYPES] },
        size: integer,
        width: integer,
        height: integer,
      },
      required: ['path', 'type', 'size'],
      additionalProperties: false,
    },
    UnusedMediaResponse: exactObject({ count: integer, bytes: integer }),
  };
}

/**
 * A content type's shapes: its row, list and single-row responses, write bodies, write responses;
 * with localized columns, also its rows, responses and JSON write bodies in every locale at once
 * (`?locale=all`, openapi-localized-schemas.ts), `locales` naming the site's locales.
 */
export function typeSchemas(
  type: ContentType,
  name: string,
  locales: LocalesDocument = DEFAULT_LOCALES,
): Record<string, JsonSchema> {
  const names = shapeNames(name);
  const localized = hasLocalizedColumns(type);
  /** A row's members, each column's value as `value` gives it, then `more`. */
  const rowOf = (value: (column: ColumnDescriptor) => JsonSchema, more: Record<string, JsonSchema>) => {
    const row: Record<string, JsonSchema> = { id: { ...string, description: 'The row’s id (its primary key)' } };
    for (const column of type.columns) row[column.name] = value(column);
    row.meta = { anyOf: [ref('SeoMeta'), { type: 'null' }], description: 'SEO data, or null when none is set' };
    if (type.flatMeta) for (const key of META_KEYS) row[`meta_${key}`] = stringOrNull;
    return Object.assign(row, SYSTEM_PROPERTIES, more);
  };
  const row = rowOf(
    (column) => (column.localized ? inOneLocale(column, 'read') : columnSchema(column, 'read')),
    localized ? oneLocaleMembers(type) : {},
  );

  const listOf = (rowName: string): Record<string, JsonSchema> => ({
    time: ref('Timing'),
    total: { ...integer, description: 'All rows of the type' },
    filtered: { ...integer, description: 'Rows matching the filters' },
    count: { ...integer, description: 'Rows in `rows`' },
    pk: { const: 'id' },
    rows: { type: 'array', items: ref(rowName) },
    columns: { type: 'array', items: ref('PublishedColumn') },
    filters: { type: 'array', maxItems: 0 },
    preview_path: stringOrNull,
    custom: { type: 'boolean' },
  });
  const list = listOf(names.row);
  const metaMember: JsonSchema = { type: ['string', 'null'], maxLength: MAX_META_LENGTH };
  // Reads of a type whose columns may show images carry their layout from the media library (AssetService.decorate).
  const carriesMedia = rowCarriesMedia(type);
  const ignored = Object.fromEntries(
    [
      'id',
      ...Object.keys(SYSTEM_PROPERTIES),
      'schedule',
      ...(carriesMedia ? [ROW_MEDIA_MEMBER] : []),
      ...(localized ? ['locale', 'fallbacks'] : []),
    ].map((field) => [field, { description: 'Set by the server; ignored' }]),
  );
  const input: Record<string, JsonSchema> = {};
  const form: Record<string, JsonSchema> = {};
  for (const column of type.columns) {
    input[column.name] = column.localized ? inOneLocale(column, 'write') : columnSchema(column, 'write');
    form[column.name] = columnSchema(column, 'form');
  }
  input.meta = {
    anyOf: [
      {
        type: 'object',
        properties: Object.fromEntries(META_KEYS.map((key) => [key, metaMember])),
        additionalProperties: false,
      },
      { type: 'null' },
    ],
    description: 'SEO data to set (members left out stay as they are), or null to clear it',
  };
  for (const key of META_KEYS) {
    input[`meta_${key}`] = metaMember;
    form[`meta[${key}]`] = { type: 'string', maxLength: MAX_META_LENGTH };
    form[`meta_${key}`] = { type: 'string', maxLength: MAX_META_LENGTH };
  }
  // A create needs every required column but slugs, which are made from their parent, and columns
  // shown on a condition, which are required only while it holds.
  const required = type.columns.filter(requiredOnCreate).map((c) => c.name);
  const writeBody = (properties: Record<string, JsonSchema>, create: boolean, description: string): JsonSchema => ({
    type: 'object',
    description,
    properties: { ...properties, ...ignored },
    ...(create && required.length > 0 ? { required } : {}),
    additionalProperties: false,
  });
  // Reads carry the row's pending schedule; write answers do not (so it is not required).
  const readRow = (members: Record<string, JsonSchema>, description: string): JsonSchema =>
    withOptional(exactObject(members, description), {
      schedule: SCHEDULE_PROPERTY,
      ...(carriesMedia ? { [ROW_MEDIA_MEMBER]: MEDIA_PROPERTY } : {}),
    });
  const deleted = (members: Record<string, JsonSchema>) =>
    exactObject({ ...members, rowCount: { const: 1 } }, 'The deleted row and rowCount');
  const schemas: Record<string, JsonSchema> = {
    [names.row]: readRow(row, `A row of ${type.title} (/api/cms/${type.table})`),
    [names.list]: exactObject(list, `GET /api/cms/${type.table}`),
    [names.item]: exactObject(
      { ...list, meta: ref('SeoMeta') },
      `GET /api/cms/${type.table}/{id}: one row, and its page meta`,
    ),
    [names.input]: writeBody(input, true, `A new row of ${type.title} as JSON`),
    [names.update]: writeBody(input, false, `A change to a row of ${type.title} as JSON: what changes`),
    [names.form]: writeBody(form, true, `A new row of ${type.title} as a form; tags repeat their key (tags=a&tags=b)`),
    [names.updateForm]: writeBody(form, false, `A change to a row of ${type.title} as a form: what changes`),
    [names.created]: exactObject({
      id: string,
      rows: { type: 'array', items: ref(names.row), minItems: 1, maxItems: 1 },
    }),
    [names.deleted]: deleted(row),
  };
  if (!localized) return schemas;

  const all = allLocalesShapeNames(name);
  const allRow = rowOf(
    (column) => (column.localized ? inAllLocales(column, 'read', locales) : columnSchema(column, 'read')),
    allLocalesMembers(),
  );
  const allList = listOf(all.row);
  const allInput = (create: boolean) => {
    const properties = { ...input };
    for (const column of localizedColumnsOf(type.columns)) {
      properties[column.name] = inAllLocales(column, 'write', locales, create);
    }
    return properties;
  };
  const either = (one: string, every: string): JsonSchema => ({ oneOf: [ref(one), ref(every)] });
  return {
    ...schemas,
    [names.created]: exactObject({
      id: string,
      rows: { type: 'array', items: either(names.row, all.row), minItems: 1, maxItems: 1 },
    }),
    [names.deleted]: { oneOf: [deleted(row), deleted(allRow)], description: 'The deleted row and rowCount' },
    [all.row]: readRow(allRow, `A row of ${type.title} in every locale (/api/cms/${type.table}?locale=all)`),
    [all.list]: exactObject(allList, `GET /api/cms/${type.table}?locale=all`),
    [all.item]: exactObject(
      { ...allList, meta: ref('SeoMeta') },
      `GET /api/cms/${type.table}/{id}?locale=all: one row in every locale, and its page meta`,
    ),
    [all.input]: writeBody(
      allInput(true),
      true,
      `A new row of ${type.title} as JSON with ?locale=all: localized fields by locale`,
    ),
    [all.update]: writeBody(
      allInput(false),
      false,
      `A change to a row of ${type.title} as JSON with ?locale=all: what changes, localized fields by locale`,
    ),
  };
}
