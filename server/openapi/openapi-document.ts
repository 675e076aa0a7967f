import type { ErrorCode } from '../../common/api-contract.js';
import { type ContentType, SYSTEM_SORTABLE } from '../content/content-type.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../content/list-query.js';
import type { JsonSchema } from '../fields/field.js';
import { fieldFor } from '../fields/field-registry.js';
import { shapeNames, typeNames } from '../types-gen/type-names.js';
import { accountPaths, accountSchemas } from './openapi-account-paths.js';
import { notModifiedResponse, withConditionalGets } from './openapi-etags.js';
import { hookPaths, publishingSchemas, schedulePaths } from './openapi-publishing-paths.js';
import { revisionPaths, revisionSchemas, typeChangePaths } from './openapi-revision-paths.js';
import { errorCodesByStatus, errorMeaning, ref, sharedSchemas, typeSchemas } from './openapi-schemas.js';

/** An OpenAPI 3.1 document as a plain object. */
export type OpenApiDocument = JsonSchema & {
  openapi: string;
  paths: Record<string, JsonSchema>;
  components: { schemas: Record<string, JsonSchema>; [section: string]: Record<string, JsonSchema> };
  /** Each content type's table, slug and the name of its row schema (`news` -> `News`). */
  'x-quire-content-types': { table: string; slug: string; title: string; name: string }[];
};

/** What the document says about the server beyond its content types. */
export interface DocumentOptions {
  /** Quire's version, the document's `info.version`. */
  version: string;
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Errors any request under /api may meet (guards, the database, the server itself). */
const ALWAYS: ErrorCode[] = [
  'unauthorized',
  'forbidden',
  'misdirected_request',
  'internal_error',
  'database_unavailable',
];
const READ_ERRORS: ErrorCode[] = ['bad_request', 'not_found', ...ALWAYS];
const WRITE_ERRORS: ErrorCode[] = [
  'bad_request',
  'validation_failed',
  'not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  ...ALWAYS,
];

/**
 * The OpenAPI 3.1 description of the API as it is now: the generic endpoints, and for each content
 * type its own list, row and write paths with its row schema, so the document changes when a type does.
 */
export function openApiDocument(types: readonly ContentType[], options: DocumentOptions): OpenApiDocument {
  const shared = { ...sharedSchemas(), ...accountSchemas(), ...revisionSchemas(), ...publishingSchemas() };
  const names = typeNames(types, Object.keys(shared));
  const schemas: Record<string, JsonSchema> = { ...shared };
  const paths: Record<string, JsonSchema> = {
    ...contentTypePaths(),
    ...mediaPaths(),
    ...describePaths(),
    ...accountPaths(responses),
    ...typeChangePaths(responses),
    ...hookPaths(responses),
  };
  for (const type of types) {
    const name = names.get(type.table) ?? type.table;
    Object.assign(schemas, typeSchemas(type, name));
    Object.assign(
      paths,
      rowPaths(type, name),
      revisionPaths(type, name, responses),
      schedulePaths(type, name, responses),
    );
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quire content API',
      version: options.version,
      description:
        'Content of this Quire server, generated from its content types as they are now. Errors always have the ErrorBody shape.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/api', description: 'This server' }],
    security: [{}, { bearer: [] }],
    tags: [
      { name: 'content types' },
      ...types.map((type) => ({ name: type.table, description: type.title })),
      { name: 'media' },
      { name: 'description' },
      { name: 'sign-in' },
      { name: 'accounts and tokens', description: 'Admins only' },
      { name: 'build hooks', description: 'Admins only' },
    ],
    paths: withConditionalGets(paths),
    components: {
      schemas,
      responses: { ...errorResponses(), ...notModifiedResponse() },
      securitySchemes: securitySchemes(),
    },
    'x-quire-content-types': types.map((type) => ({
      table: type.table,
      slug: type.slug,
      title: type.title,
      name: names.get(type.table) ?? type.table,
    })),
  };
}

/** One reusable response per error status, naming the codes it carries. */
function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of errorCodesByStatus()) {
    responses[`Error${status}`] = {
      description: codes.map((code) => `${code}: ${errorMeaning(code)}`).join('. '),
      content: { [JSON_TYPE]: { schema: ref('ErrorBody') } },
    };
  }
  return responses;
}

function securitySchemes(): Record<string, JsonSchema> {
  return {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'Needed only when the server was started with a token or has accounts (then a 401 says so)',
    },
  };
}

/** A success response and the error responses of `codes`, by status. */
function responses(status: number, description: string, schema: JsonSchema | null, codes: ErrorCode[]): JsonSchema {
  const byStatus = errorCodesByStatus();
  const answer: Record<string, JsonSchema> = {
    [String(status)]: {
      description,
      ...(schema ? { content: { [JSON_TYPE]: { schema } } } : {}),
    },
  };
  for (const [errorStatus, errorCodes] of byStatus) {
    if (errorCodes.some((code) => codes.includes(code))) {
      answer[String(errorStatus)] = { $ref: `#/components/responses/Error${errorStatus}` };
    }
  }
  return answer;
}

/** A request body sent as JSON or as a form. */
function writeBody(json: string, form: string): JsonSchema {
  return {
    required: true,
    content: {
      [JSON_TYPE]: { schema: ref(json) },
      [FORM_TYPE]: { schema: ref(form), encoding: { tags: { style: 'form', explode: true } } },
    },
  };
}

const pathParameter = (name: string, description: string): JsonSchema => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** The list query parameters, with the fields a type can be filtered and ordered on. */
function listParameters(type: ContentType | null): JsonSchema[] {
  const filterable = type?.columns.filter((column) => fieldFor(column.type).filter !== 'none').map((c) => c.name);
  const orderable = type
    ? [...type.columns.filter((column) => fieldFor(column.type).orderable).map((c) => c.name), ...SYSTEM_SORTABLE]
    : null;
  const fields = filterable ? ` Fields: ${[...filterable, ...SYSTEM_SORTABLE].join(', ')}.` : '';
  return [
    {
      name: 'filter',
      in: 'query',
      description: `Repeat to combine with AND. field=value: equal (tags: rows carrying the tag; an empty value: rows without one). field!=value: not equal (rows without a value included). field<value, field<=value, field>value, field>=value: order comparisons, on fields that can be ordered (${'`'}published_at<=2026-01-01 00:00:00${'`'}; rows without a value never match). field:in=a|b: one of several values (write a | or \\ inside a value as \\| or \\\\). field:empty, field:notempty. relation.slug=value (also != and :in=): a relation by its target's slug; relation=id by its id. search=keyword: in titles and slugs. A filter the server cannot answer exactly is a 400 naming it.${fields}`,
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

/** `/cms/{table}` and `/cms/{table}/{id}` of one content type. */
function rowPaths(type: ContentType, name: string): Record<string, JsonSchema> {
  const shapes = shapeNames(name);
  const tags = [type.table];
  const id = pathParameter('id', `The id of a row of ${type.title}`);
  const create = (withId: boolean): JsonSchema => ({
    tags,
    operationId: withId ? `create${name}WithId` : `create${name}`,
    summary: withId ? `Create a row of ${type.title} with this id` : `Create a row of ${type.title}`,
    requestBody: writeBody(shapes.input, shapes.form),
    responses: {
      ...responses(201, 'Created; Location names the new row', ref(shapes.created), WRITE_ERRORS),
    },
  });
  const update = (method: string): JsonSchema => ({
    tags,
    operationId: `${method}${name}`,
    summary: `Change a row of ${type.title} (only the fields sent)`,
    requestBody: writeBody(shapes.update, shapes.updateForm),
    responses: responses(200, 'The row as it is now', ref(shapes.row), WRITE_ERRORS),
  });
  return {
    [`/cms/${type.table}`]: {
      get: {
        tags,
        operationId: `list${name}`,
        summary: `List rows of ${type.title}`,
        parameters: listParameters(type),
        responses: responses(200, 'A page of rows with exact counts', ref(shapes.list), READ_ERRORS),
      },
      post: create(false),
    },
    [`/cms/${type.table}/{id}`]: {
      parameters: [id],
      get: {
        tags,
        operationId: `get${name}`,
        summary: `Get one row of ${type.title}`,
        responses: responses(200, 'The row in the list shape, with its page meta', ref(shapes.item), READ_ERRORS),
      },
      post: create(true),
      put: update('update'),
      patch: update('patch'),
      delete: {
        tags,
        operationId: `delete${name}`,
        summary: `Delete a row of ${type.title}`,
        description: 'Refused (409, with `references`) while a relation of another row points at it',
        responses: responses(200, 'The deleted row', ref(shapes.deleted), [...READ_ERRORS, 'conflict']),
      },
    },
  };
}

/** `/cms-content` and `/cms-content/{slug}`: the content types themselves. */
function contentTypePaths(): Record<string, JsonSchema> {
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
        responses: responses(200, 'Every content type', ref('ContentTypeListResponse'), ALWAYS),
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
        parameters: listParameters(null),
        responses: responses(200, 'The content type and its rows', ref('ContentTypeResponse'), READ_ERRORS),
      },
      put: {
        tags,
        operationId: 'updateContentType',
        summary: 'Change a content type: its title, preview path or columns',
        requestBody: body,
        responses: responses(200, 'The content type as it is now', ref('ContentTypeSummary'), WRITE_ERRORS),
      },
      delete: {
        tags,
        operationId: 'deleteContentType',
        summary: 'Delete a content type and its table (refused while it has rows, unless force)',
        parameters: [{ name: 'force', in: 'query', schema: { type: 'string', enum: ['true', '1'] } }],
        responses: responses(200, 'The content type as it was', ref('ContentTypeSummary'), [
          ...READ_ERRORS,
          'conflict',
        ]),
      },
    },
  };
}

/** Uploads, the unused-media count, and the media files themselves. */
function mediaPaths(): Record<string, JsonSchema> {
  const tags = ['media'];
  return {
    '/uploads': {
      post: {
        tags,
        operationId: 'upload',
        summary: 'Upload an image (PNG, JPEG, GIF, WebP or AVIF, told by its bytes)',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: {
                type: 'object',
                properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
                required: ['file'],
              },
            },
          },
        },
        responses: responses(201, 'Where the file is served: the value an image column takes', ref('UploadResponse'), [
          'bad_request',
          'not_found',
          'payload_too_large',
          'unsupported_media_type',
          ...ALWAYS,
        ]),
      },
    },
    '/media/unused': {
      get: {
        tags,
        operationId: 'unusedMedia',
        summary: 'How many uploads no row names, and their size',
        responses: responses(200, 'The unused uploads', ref('UnusedMediaResponse'), ['not_found', ...ALWAYS]),
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
        summary: 'An uploaded file (cached for a year: names are never reused)',
        security: [],
        responses: {
          '200': {
            description: 'The file',
            content: { 'image/*': { schema: { type: 'string', contentMediaType: 'image/*' } } },
          },
          '404': { $ref: '#/components/responses/Error404' },
        },
      },
    },
  };
}

/** This document and the TypeScript declarations made from it. */
function describePaths(): Record<string, JsonSchema> {
  const tags = ['description'];
  return {
    '/openapi.json': {
      get: {
        tags,
        operationId: 'openApi',
        summary: 'This document',
        responses: responses(200, 'The OpenAPI 3.1 document', { type: 'object' }, ALWAYS),
      },
    },
    '/types.d.ts': {
      get: {
        tags,
        operationId: 'typeScriptTypes',
        summary: 'TypeScript declarations of every content type’s rows and responses',
        responses: {
          ...responses(200, '', null, ALWAYS),
          '200': {
            description: 'A .d.ts module',
            content: { 'application/typescript': { schema: { type: 'string' } } },
          },
        },
      },
    },
  };
}
