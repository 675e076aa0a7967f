import type { ErrorCode } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import { type ContentType, SYSTEM_SORTABLE } from '../content/content-type.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../content/list-query.js';
import type { JsonSchema } from '../fields/field.js';
import { MAX_VARIANT_SIDE, VARIANT_FITS, VARIANT_FORMATS } from '../media/image-options.js';
import { allLocalesShapeNames, shapeNames } from '../types-gen/type-names.js';
import type { Responses } from './openapi-account-paths.js';
import { UPLOAD_BODY, uploadResponses } from './openapi-asset-paths.js';
import { ALWAYS_ERRORS, READ_ERRORS } from './openapi-error-sets.js';
import { IF_MATCH } from './openapi-etags.js';
import { hasLocalizedColumns, localeParameter } from './openapi-localized-schemas.js';
import { ref } from './openapi-schemas.js';

/** The media type of JSON bodies and answers. */
export const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const WRITE_ERRORS: ErrorCode[] = [
  'bad_request',
  'validation_failed',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  ...ALWAYS_ERRORS,
];

/** A request body sent as JSON or as a form. */
function writeBody(json: JsonSchema, form: string): JsonSchema {
  return {
    required: true,
    content: {
      [JSON_TYPE]: { schema: json },
      [FORM_TYPE]: { schema: ref(form), encoding: { tags: { style: 'form', explode: true } } },
    },
  };
}

/**
 * How a type's row operations name their shapes and parameters: as ever for a type without
 * localized columns; with them, every read and write takes `?locale=` and its answers (and JSON
 * bodies) are in one locale or in all (`?locale=all`).
 */
function rowShapes(type: ContentType, name: string, locales: LocalesDocument) {
  const shapes = shapeNames(name);
  if (!hasLocalizedColumns(type)) {
    return {
      ...shapes,
      parameters: [] as JsonSchema[],
      answer: (one: keyof typeof shapes) => ref(shapes[one]),
      body: (one: 'input' | 'update') => ref(shapes[one]),
    };
  }
  const all = allLocalesShapeNames(name);
  return {
    ...shapes,
    parameters: [localeParameter(locales)],
    answer: (one: 'row' | 'list' | 'item' | 'created' | 'deleted'): JsonSchema =>
      one === 'created' || one === 'deleted' ? ref(shapes[one]) : { oneOf: [ref(shapes[one]), ref(all[one])] },
    // A body that names no localized field fits both: anyOf.
    body: (one: 'input' | 'update'): JsonSchema => ({ anyOf: [ref(shapes[one]), ref(all[one])] }),
  };
}

/** A query parameter of a media file's variant. */
const variantParameter = (name: string, description: string, schema: JsonSchema): JsonSchema => ({
  name,
  in: 'query',
  required: false,
  description: description.replace('MAX', String(MAX_VARIANT_SIDE)),
  schema,
});

const pathParameter = (name: string, description: string): JsonSchema => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** The list query parameters, with the fields a type can be filtered and ordered on. */
function listParameters(type: ContentType | null): JsonSchema[] {
  // The published descriptors say what each column takes (for a credential that may not follow a
  // relation, neither filter nor order: see describedWithout).
  const filterable = type?.publishedColumns.filter((column) => column.filterable).map((c) => c.name);
  const orderable = type
    ? [...type.publishedColumns.filter((column) => column.orderable).map((c) => c.name), ...SYSTEM_SORTABLE]
    : null;
  const fields = filterable ? ` Fields: ${[...filterable, ...SYSTEM_SORTABLE].join(', ')}.` : '';
  return [
    {
      name: 'filter',
      in: 'query',
      description: `Repeat to combine with AND. field=value: equal (tags: rows carrying the tag; an empty value: rows without one). field!=value: not equal (rows without a value included). field<value, field<=value, field>value, field>=value: order comparisons, on fields that can be ordered (${'`'}published_at<=2026-01-01 00:00:00${'`'}; rows without a value never match). field:in=a|b: one of several values (write a | or \\ inside a value as \\| or \\\\). field:empty, field:notempty. relation.slug=value (also != and :in=): a relation by its target's slug; relation=id by its id. search=keyword: in the search_columns (titles, slugs, and the text of rich text and blocks). A filter the server cannot answer exactly is a 400 naming it.${fields}`,
      schema: {
        type: 'array',
        items: { type: 'string', pattern: '^[^=!<>:.]+(?:\\.[^=!<>:.]+)?(?:=|!=|<|>|:in=|:empty$|:notempty$)' },
      },
      style: 'form',
      explode: true,
    },
    {
      name: 'limit',
      in: 'query',
      description: 'Most rows to return',
      schema: { type: 'integer', minimum: 0, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
    },
    { name: 'offset', in: 'query', description: 'Rows to skip', schema: { type: 'integer', minimum: 0, default: 0 } },
    {
      name: 'order',
      in: 'query',
      description: 'The field to sort by',
      schema: orderable ? { type: 'string', enum: orderable, default: 'id' } : { type: 'string', default: 'id' },
    },
    {
      name: 'desc',
      in: 'query',
      description: 'Sort descending',
      schema: { type: 'string', enum: ['true', 'false', '1', '0', 'desc', 'asc'], default: 'false' },
    },
  ];
}

/** `format`, on reads of a type with `richtext` columns: how those columns read. */
function formatParameters(type: ContentType): JsonSchema[] {
  if (!type.columns.some((column) => column.type === 'richtext')) return [];
  return [
    {
      name: 'format',
      in: 'query',
      description: 'How richtext columns read: html (as stored, links to rows at their current address) or markdown',
      schema: { type: 'string', enum: ['html', 'markdown'], default: 'html' },
    },
  ];
}

/** `/cms/{table}` and `/cms/{table}/{id}` of one content type. */
export function rowPaths(
  type: ContentType,
  name: string,
  responses: Responses,
  locales: LocalesDocument = DEFAULT_LOCALES,
): Record<string, JsonSchema> {
  const shapes = rowShapes(type, name, locales);
  const tags = [type.table];
  const id = pathParameter('id', `The id of a row of ${type.title}`);
  const create = (withId: boolean): JsonSchema => ({
    tags,
    operationId: withId ? `create${name}WithId` : `create${name}`,
    summary: withId ? `Create a row of ${type.title} with this id` : `Create a row of ${type.title}`,
    ...(shapes.parameters.length > 0 ? { parameters: shapes.parameters } : {}),
    requestBody: writeBody(shapes.body('input'), shapes.form),
    responses: {
      ...responses(201, 'Created; Location names the new row', shapes.answer('created'), WRITE_ERRORS),
    },
  });
  const update = (method: string): JsonSchema => ({
    tags,
    operationId: `${method}${name}`,
    summary: `Change a row of ${type.title} (only the fields sent)`,
    parameters: [...shapes.parameters, IF_MATCH],
    requestBody: writeBody(shapes.body('update'), shapes.updateForm),
    responses: responses(200, 'The row as it is now (with If-Match: its new ETag)', shapes.answer('row'), [
      ...WRITE_ERRORS,
      'stale_write',
    ]),
  });
  const reads = (more: JsonSchema[]): JsonSchema[] => [...more, ...formatParameters(type), ...shapes.parameters];
  if (type.kind === 'single') return singleRowPaths(type, name, responses, update, shapes, reads);
  return {
    [`/cms/${type.table}`]: {
      get: {
        tags,
        operationId: `list${name}`,
        summary: `List rows of ${type.title}`,
        parameters: reads(listParameters(type)),
        responses: responses(200, 'A page of rows with exact counts', shapes.answer('list'), READ_ERRORS),
      },
      post: create(false),
    },
    [`/cms/${type.table}/{id}`]: {
      parameters: [id],
      get: {
        tags,
        operationId: `get${name}`,
        summary: `Get one row of ${type.title}`,
        parameters: reads([]),
        responses: responses(200, 'The row in the list shape, with its page meta', shapes.answer('item'), READ_ERRORS),
      },
      post: create(true),
      put: update('update'),
      patch: update('patch'),
      delete: {
        tags,
        operationId: `delete${name}`,
        summary: `Delete a row of ${type.title}`,
        description: 'Refused (409, with `references`) while a relation of another row points at it',
        parameters: [...shapes.parameters, IF_MATCH],
        responses: responses(200, 'The deleted row', shapes.answer('deleted'), [
          ...READ_ERRORS,
          'conflict',
          'stale_write',
        ]),
      },
    },
  };
}

/**
 * A single type's paths: its one row at `/cms/{table}` (read, and changed or first created by
 * `PUT`/`PATCH`), and by its id; creating and deleting rows is refused (409 `single_row_type`).
 */
function singleRowPaths(
  type: ContentType,
  name: string,
  responses: Responses,
  update: (method: string) => JsonSchema,
  shapes: ReturnType<typeof rowShapes>,
  reads: (more: JsonSchema[]) => JsonSchema[],
): Record<string, JsonSchema> {
  const tags = [type.table];
  const write = (method: string): JsonSchema => {
    const base = update(`${method}Single`);
    return {
      ...base,
      summary: `Change the one row of ${type.title} (only the fields sent); the first write creates it`,
      description:
        'Before its first write the type has no row: that write (without If-Match) creates it, answered 201 with Location; required fields are checked then',
      requestBody: writeBody(shapes.body('update'), shapes.updateForm),
      responses: {
        ...(base.responses as JsonSchema),
        ...responses(201, 'Created: the first write made the row (Location names it)', shapes.answer('row'), []),
      },
    };
  };
  return {
    [`/cms/${type.table}`]: {
      get: {
        tags,
        operationId: `get${name}Single`,
        summary: `Get the one row of ${type.title}`,
        parameters: reads([]),
        description: 'A single type: `rows` holds its one row (empty before its first write), with its page meta',
        responses: responses(200, 'The row in the list shape, with its page meta', shapes.answer('item'), READ_ERRORS),
      },
      put: write('update'),
      patch: write('patch'),
    },
    [`/cms/${type.table}/{id}`]: {
      parameters: [pathParameter('id', `The id of the one row of ${type.title}`)],
      get: {
        tags,
        operationId: `get${name}`,
        summary: `Get the one row of ${type.title} by its id`,
        parameters: reads([]),
        responses: responses(200, 'The row in the list shape, with its page meta', shapes.answer('item'), READ_ERRORS),
      },
      put: update('update'),
      patch: update('patch'),
    },
  };
}

/**
 * `/cms-content` and `/cms-content/{slug}`: the content types themselves. With `locales` (a site
 * with localized columns), a type's rows read there take `?locale=` as its own list does.
 */
export function contentTypePaths(
  responses: Responses,
  locales: LocalesDocument | null = null,
): Record<string, JsonSchema> {
  const tags = ['content types'];
  const body: JsonSchema = {
    required: true,
    content: { [JSON_TYPE]: { schema: ref('ContentTypeRequest') }, [FORM_TYPE]: { schema: ref('ContentTypeForm') } },
  };
  return {
    '/cms-content': {
      get: {
        tags,
        operationId: 'listContentTypes',
        summary: 'List the content types',
        responses: responses(200, 'Every content type', ref('ContentTypeListResponse'), ALWAYS_ERRORS),
      },
      post: {
        tags,
        operationId: 'createContentType',
        summary: 'Create a content type (title and columns; slug and table are made from the title)',
        requestBody: body,
        responses: responses(201, 'The new content type', ref('ContentTypeSummary'), WRITE_ERRORS),
      },
    },
    '/cms-content/{slug}': {
      parameters: [pathParameter('slug', 'The slug of a content type')],
      get: {
        tags,
        operationId: 'getContentType',
        summary: 'Get a content type and its rows (the list query parameters apply)',
        parameters: locales ? [...listParameters(null), localeParameter(locales)] : listParameters(null),
        responses: responses(200, 'The content type and its rows', ref('ContentTypeResponse'), READ_ERRORS),
      },
      put: {
        tags,
        operationId: 'updateContentType',
        summary: 'Change a content type: its title, preview path or columns',
        parameters: [IF_MATCH],
        requestBody: body,
        responses: responses(
          200,
          'The content type as it is now (its ETag is its version)',
          ref('ContentTypeSummary'),
          [...WRITE_ERRORS, 'stale_write'],
        ),
      },
      delete: {
        tags,
        operationId: 'deleteContentType',
        summary: 'Delete a content type and its table (refused while it has rows, unless force)',
        parameters: [{ name: 'force', in: 'query', schema: { type: 'string', enum: ['true', '1'] } }, IF_MATCH],
        responses: responses(200, 'The content type as it was', ref('ContentTypeSummary'), [
          ...READ_ERRORS,
          'conflict',
          'stale_write',
        ]),
      },
    },
  };
}

/** Uploads, the unused-media count, and the media files themselves. */
export function mediaPaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['media'];
  return {
    '/uploads': {
      post: {
        tags,
        operationId: 'upload',
        summary:
          'Upload an image (PNG, JPEG, GIF, WebP or AVIF, told by its bytes) into the media library; the same bytes again answer 200 with the asset they already are',
        parameters: [
          {
            name: 'duplicate',
            in: 'query',
            description: 'Keep a new asset even when the library has these bytes',
            schema: { type: 'boolean', default: false },
          },
        ],
        requestBody: UPLOAD_BODY,
        responses: {
          ...uploadResponses(responses, 201, 'The new asset; its path is the value an image column takes', [
            'bad_request',
            'not_found',
            ...ALWAYS_ERRORS,
          ]),
          '200': {
            description: 'The asset the library already has these bytes as (nothing new is kept)',
            content: { [JSON_TYPE]: { schema: ref('MediaAsset') } },
          },
        },
      },
    },
    '/media/unused': {
      get: {
        tags,
        operationId: 'unusedMedia',
        summary: 'How many uploads no row names, and their size',
        responses: responses(200, 'The unused uploads', ref('UnusedMediaResponse'), ['not_found', ...ALWAYS_ERRORS]),
      },
    },
    '/media/{year}/{month}/{file}': {
      servers: [{ url: '/', description: 'Media are served beside /api, not under it' }],
      parameters: [
        pathParameter('year', 'YYYY'),
        pathParameter('month', 'MM'),
        pathParameter('file', 'The generated file name'),
      ],
      get: {
        tags,
        operationId: 'mediaFile',
        summary:
          'An uploaded file, or a variant of it made once and cached (any of w, h, fit, format, q); immutable for a year only with the v of its content hash',
        security: [],
        parameters: [
          variantParameter('w', 'Width in pixels, at most the original and MAX', {
            type: 'integer',
            minimum: 1,
            maximum: MAX_VARIANT_SIDE,
          }),
          variantParameter('h', 'Height in pixels, at most the original and MAX', {
            type: 'integer',
            minimum: 1,
            maximum: MAX_VARIANT_SIDE,
          }),
          variantParameter('fit', 'cover crops around the focal point, contain pads, inside fits within', {
            type: 'string',
            enum: [...VARIANT_FITS],
            default: 'cover',
          }),
          variantParameter(
            'format',
            'auto picks AVIF, then WebP, then the original format from Accept (Vary: Accept)',
            { type: 'string', enum: [...VARIANT_FORMATS, 'auto'] },
          ),
          variantParameter('q', 'Quality', { type: 'integer', minimum: 1, maximum: 100 }),
          variantParameter(
            'v',
            'The content hash: with the current one, the answer is immutable for a year (a crop, fit=cover with w and h, is revalidated: it follows the focal point)',
            {
              type: 'string',
            },
          ),
        ],
        responses: {
          '200': {
            description: 'The file or its variant',
            content: { 'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } } },
          },
          '304': { $ref: '#/components/responses/NotModified' },
          '400': { $ref: '#/components/responses/Error400' },
          '404': { $ref: '#/components/responses/Error404' },
          '415': { $ref: '#/components/responses/Error415' },
          '429': { $ref: '#/components/responses/Error429' },
        },
      },
    },
  };
}

/** The OpenAPI document itself (`/openapi.json`) and the TypeScript declarations made from it. */
export function describePaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['description'];
  return {
    '/openapi.json': {
      get: {
        tags,
        operationId: 'openApi',
        summary: 'This document',
        responses: responses(200, 'The OpenAPI 3.1 document', { type: 'object' }, ALWAYS_ERRORS),
      },
    },
    '/types.d.ts': {
      get: {
        tags,
        operationId: 'typeScriptTypes',
        summary: 'TypeScript declarations of every content type’s rows and responses',
        responses: {
          ...responses(200, '', null, ALWAYS_ERRORS),
          '200': {
            description: 'A .d.ts module',
            content: { 'application/typescript': { schema: { type: 'string' } } },
          },
        },
      },
    },
  };
}
