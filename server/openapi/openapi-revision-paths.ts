import type { ErrorCode } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import { REVISION_ORIGINS } from '../../common/revision-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { READ_ERRORS } from './openapi-error-sets.js';
import { hasLocalizedColumns, localeParameter } from './openapi-localized-schemas.js';
import { ref } from './openapi-schemas.js';

const string: JsonSchema = { type: 'string' };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const integer: JsonSchema = { type: 'integer', minimum: 0 };
const strings: JsonSchema = { type: 'array', items: string };

function object(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

/** A page of a longer list: its total and where it starts. */
const page = (name: string, items: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema =>
  object({ total: integer, limit: integer, offset: integer, ...extra, [name]: { type: 'array', items } });

/** The shapes of revisions, the trash and the content-type change log. */
export function revisionSchemas(): Record<string, JsonSchema> {
  const change = object({ from: stringOrNull, to: stringOrNull });
  return {
    RevisionSummary: object(
      {
        id: integer,
        action: { type: 'string', enum: ['create', 'update', 'delete', 'restore'] },
        fields: { ...strings, description: 'The fields the change set or changed; empty for a delete' },
        by: stringOrNull,
        at: string,
        origin: {
          type: 'string',
          enum: [...REVISION_ORIGINS],
          description:
            "Why the change was written: a person's edit, a scheduled change firing (by: who scheduled it), a restore, an import",
        },
        restored_from: { ...stringOrNull, description: "A restore's: when the revision it put back was written" },
        locales: {
          type: 'object',
          additionalProperties: strings,
          description:
            'Of a type with localized fields: which of them the change set or changed in which locale (locale code -> fields); absent when none did',
        },
      },
      ['locales'],
    ),
    RevisionListResponse: page('revisions', ref('RevisionSummary')),
    RevisionResponse: object({
      revision: ref('RevisionSummary'),
      row: ref('ContentRow'),
      dropped: { ...strings, description: 'Fields the snapshot holds that the type no longer has' },
      exists: { type: 'boolean', description: 'Whether the row exists now' },
    }),
    RestoreResponse: object({ row: ref('ContentRow'), revision: ref('RevisionSummary'), dropped: strings }),
    TrashEntry: object({
      id: string,
      title: stringOrNull,
      deleted_at: string,
      deleted_by: stringOrNull,
      purge_at: string,
      revision: integer,
    }),
    TrashListResponse: page('rows', ref('TrashEntry'), { retention_days: integer }),
    TypeChange: object({
      id: integer,
      type: { ...string, description: 'The content type’s slug' },
      action: { type: 'string', enum: ['create', 'update', 'delete'] },
      detail: object(
        {
          title: change,
          preview_path: change,
          type: object({ from: string, to: string }),
          added: strings,
          dropped: strings,
          renamed: { type: 'array', items: object({ from: string, to: string }) },
          changed: strings,
          converted: {
            type: 'array',
            items: object({ column: string, from: string, to: string }),
            description: 'Columns whose type changed with their content converted',
          },
          dropped_values: {
            type: 'array',
            items: object({ column: string, locale: string, count: integer }),
            description: 'Values of other locales than the default that columns no longer localized dropped',
          },
        },
        ['title', 'preview_path', 'type', 'added', 'dropped', 'renamed', 'changed', 'converted', 'dropped_values'],
      ),
      by: stringOrNull,
      at: string,
    }),
    TypeChangeListResponse: page('changes', ref('TypeChange')),
  };
}

const RESTORE: ErrorCode[] = [...READ_ERRORS, 'validation_failed', 'conflict'];

/** `limit` (1 to 100, default 20) and `offset` of a paged history. */
const pageParameters: JsonSchema[] = [
  { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
  { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
];

/** `/cms-content-changes`: the log of content-type changes. */
export function typeChangePaths(responses: Responses): Record<string, JsonSchema> {
  return {
    '/cms-content-changes': {
      get: {
        tags: ['content types'],
        operationId: 'contentTypeChanges',
        summary: 'What changed in the content types, newest first',
        parameters: [
          ...pageParameters,
          { name: 'type', in: 'query', description: 'Only this content type’s slug', schema: string },
        ],
        responses: responses(200, 'A page of changes', ref('TypeChangeListResponse'), READ_ERRORS),
      },
    },
  };
}

/** A content type's trash and its rows' revisions. */
export function revisionPaths(
  type: ContentType,
  name: string,
  responses: Responses,
  locales: LocalesDocument = DEFAULT_LOCALES,
): Record<string, JsonSchema> {
  // A localized type's rows in a revision or a restore answer in `?locale=`, as its reads do.
  const inLocale = hasLocalizedColumns(type) ? { parameters: [localeParameter(locales)] } : {};
  const tags = [type.table];
  const base = `/cms/${type.table}`;
  const id = { name: 'id', in: 'path', required: true, schema: string, description: 'The row’s id' };
  const rev = { name: 'rev', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } };
  return {
    [`${base}/trash`]: {
      get: {
        tags,
        operationId: `trash${name}`,
        summary: `Deleted rows of ${type.title} that can still be restored`,
        parameters: pageParameters,
        responses: responses(200, 'A page of the trash', ref('TrashListResponse'), READ_ERRORS),
      },
    },
    [`${base}/trash/{id}/restore`]: {
      parameters: [id],
      post: {
        tags,
        operationId: `restoreDeleted${name}`,
        summary: `Bring a deleted row of ${type.title} back`,
        ...inLocale,
        responses: responses(200, 'The row, restored', ref('RestoreResponse'), RESTORE),
      },
    },
    [`${base}/{id}/revisions`]: {
      parameters: [id],
      get: {
        tags,
        operationId: `revisionsOf${name}`,
        summary: `The changes of a row of ${type.title}, newest first`,
        parameters: pageParameters,
        responses: responses(200, 'A page of revisions', ref('RevisionListResponse'), READ_ERRORS),
      },
    },
    [`${base}/{id}/revisions/{rev}`]: {
      parameters: [id, rev],
      get: {
        tags,
        operationId: `revisionOf${name}`,
        summary: `A row of ${type.title} as one change left it`,
        ...inLocale,
        responses: responses(200, 'The revision and its snapshot', ref('RevisionResponse'), READ_ERRORS),
      },
    },
    [`${base}/{id}/revisions/{rev}/restore`]: {
      parameters: [id, rev],
      post: {
        tags,
        operationId: `restoreRevisionOf${name}`,
        summary: `Put a row of ${type.title} back as one change left it`,
        ...inLocale,
        responses: responses(200, 'The row as written', ref('RestoreResponse'), RESTORE),
      },
    },
  };
}
