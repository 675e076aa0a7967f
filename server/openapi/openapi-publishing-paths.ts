import type { ErrorCode } from '../../common/api-contract.js';
import { HOOK_ACTIONS } from '../../common/publishing-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS, READ_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

const string: JsonSchema = { type: 'string' };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const integer: JsonSchema = { type: 'integer', minimum: 0 };
const action: JsonSchema = { type: 'string', enum: [...HOOK_ACTIONS] };
const listOrNull = (items: JsonSchema, description: string): JsonSchema => ({
  anyOf: [{ type: 'array', items }, { type: 'null' }],
  description,
});

function object(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
  };
}

/** The shapes of scheduled changes and build hooks. */
export function publishingSchemas(): Record<string, JsonSchema> {
  const eventProperties: Record<string, JsonSchema> = {
    event: { type: 'string', enum: ['content.change', 'test'] },
    type: { ...string, description: 'The content type’s table (empty for a test)' },
    id: { ...string, description: 'The row’s id (empty for a test)' },
    action: { type: 'string', enum: [...HOOK_ACTIONS, 'test'] },
    at: { ...string, description: 'When the change was committed (UTC server timestamp)' },
    by: stringOrNull,
    cursor: {
      ...string,
      description: 'The change feed’s cursor of this change (GET /api/changes?since=); absent for a test',
    },
    locales: {
      type: 'array',
      items: string,
      description:
        'The locales the change touched, as the change feed names them: of a type with localized columns, those whose own values it changed ([] for shared fields only, as a scheduled status change); absent for a delete, other types and a test',
    },
  };
  const hookProperties: Record<string, JsonSchema> = {
    id: string,
    url: string,
    content_types: listOrNull(string, 'Content types (tables) it hears of; null: all'),
    actions: listOrNull(action, 'Which changes; null: all'),
    has_secret: { type: 'boolean' },
    created_at: string,
    created_by: stringOrNull,
    waiting: { ...integer, description: 'Events waiting for delivery' },
    failures: { ...integer, description: 'Failed deliveries in a row' },
    retry_at: stringOrNull,
  };
  return {
    RowSchedule: object(
      {
        status: string,
        at: { ...string, description: 'UTC, YYYY-MM-DD HH:MM:SS' },
        by: { ...stringOrNull, description: 'Who scheduled it: the change is written in their name' },
        held: {
          type: 'string',
          enum: ['account_disabled'],
          description: 'Present while the change waits although due: its account is disabled',
        },
      },
      ['held'],
    ),
    ScheduleRequest: object({
      status: { ...string, description: 'One of the type’s status options' },
      at: { ...string, description: 'UTC: 2026-12-01 07:00:00 (ISO 8601 with T and Z accepted)' },
    }),
    ScheduleResponse: object({ id: string, schedule: { anyOf: [ref('RowSchedule'), { type: 'null' }] } }),
    HookSummary: object(hookProperties),
    HookCreatedResponse: {
      ...object({ ...hookProperties, secret: { ...stringOrNull, description: 'Shown in this answer only' } }),
      description: 'The new hook, and its secret this once',
    },
    HookRequest: object(
      {
        url: {
          ...string,
          format: 'uri',
          description: 'http:// or https:// only; never this server itself (its own address and port: a 400)',
        },
        content_types: listOrNull(string, 'Tables or slugs; null or left out: all'),
        actions: listOrNull(action, 'null or left out: all'),
        secret: { ...stringOrNull, description: 'Signs deliveries (X-Quire-Signature); never shown again' },
      },
      ['url', 'content_types', 'actions', 'secret'],
    ),
    HookListResponse: object({ hooks: { type: 'array', items: ref('HookSummary') } }),
    HookDeleted: object({ id: string, deleted: { const: true } }),
    HookDelivery: object({
      id: integer,
      at: string,
      status: { type: 'string', enum: ['delivered', 'failed', 'gave_up', 'test_delivered', 'test_failed'] },
      response_code: { type: ['integer', 'null'] },
      attempt: integer,
      events: integer,
      error: stringOrNull,
    }),
    HookDeliveryListResponse: object({
      total: integer,
      limit: integer,
      offset: integer,
      deliveries: { type: 'array', items: ref('HookDelivery') },
    }),
    HookEvent: object(eventProperties, ['cursor', 'locales']),
    HookBody: {
      ...object({ ...eventProperties, events: { type: 'array', items: ref('HookEvent'), minItems: 1 } }, [
        'cursor',
        'locales',
      ]),
      description:
        'What a hook receives: the newest event’s members, and every event of the delivery in `events`, oldest first. Each delivery carries a `Quire-Delivery: <id>` header; a Quire server answers 403 to any write carrying it, so a delivery never starts another',
    },
  };
}

const WRITE: ErrorCode[] = [...READ_ERRORS, 'validation_failed', 'unsupported_media_type', 'payload_too_large'];

const jsonBody = (name: string): JsonSchema => ({
  required: true,
  content: { 'application/json': { schema: ref(name) }, 'application/x-www-form-urlencoded': { schema: ref(name) } },
});

/** A content type's `/cms/:type/:id/schedule`. */
export function schedulePaths(type: ContentType, name: string, responses: Responses): Record<string, JsonSchema> {
  const tags = [type.table];
  const id = { name: 'id', in: 'path', required: true, schema: string, description: 'The row’s id' };
  const answer = ref('ScheduleResponse');
  return {
    [`/cms/${type.table}/{id}/schedule`]: {
      parameters: [id],
      get: {
        tags,
        operationId: `scheduleOf${name}`,
        summary: `A row of ${type.title}’s pending status change`,
        responses: responses(200, 'The pending change, or null', answer, READ_ERRORS),
      },
      post: {
        tags,
        operationId: `schedule${name}`,
        summary: `Set a row of ${type.title}’s status at a UTC time (replaces a pending change)`,
        requestBody: jsonBody('ScheduleRequest'),
        responses: responses(200, 'The pending change', answer, WRITE),
      },
      delete: {
        tags,
        operationId: `cancelScheduleOf${name}`,
        summary: `Cancel a row of ${type.title}’s pending change`,
        responses: responses(200, 'No pending change', answer, READ_ERRORS),
      },
    },
  };
}

/** `/hooks...` (admins). */
export function hookPaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['build hooks'];
  const id = { name: 'id', in: 'path', required: true, schema: string };
  return {
    '/hooks': {
      get: {
        tags,
        operationId: 'listHooks',
        summary: 'Every build hook (never their secrets)',
        responses: responses(200, 'The hooks', ref('HookListResponse'), ALWAYS_ERRORS),
      },
      post: {
        tags,
        operationId: 'createHook',
        summary: 'Add a build hook: a URL POSTed to after changes',
        requestBody: jsonBody('HookRequest'),
        responses: responses(201, 'The hook, with its secret this once', ref('HookCreatedResponse'), WRITE),
      },
    },
    '/hooks/{id}': {
      parameters: [id],
      get: {
        tags,
        operationId: 'getHook',
        summary: 'One build hook',
        responses: responses(200, 'The hook', ref('HookSummary'), READ_ERRORS),
      },
      patch: {
        tags,
        operationId: 'changeHook',
        summary: 'Change a hook’s URL, filters or secret',
        requestBody: jsonBody('HookRequest'),
        responses: responses(200, 'The hook as it is now', ref('HookSummary'), WRITE),
      },
      delete: {
        tags,
        operationId: 'deleteHook',
        summary: 'Remove a hook, its waiting events and its delivery log',
        responses: responses(200, 'Removed', ref('HookDeleted'), READ_ERRORS),
      },
    },
    '/hooks/{id}/deliveries': {
      parameters: [id],
      get: {
        tags,
        operationId: 'hookDeliveries',
        summary: 'A hook’s delivery log, newest first',
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
        ],
        responses: responses(200, 'A page of deliveries', ref('HookDeliveryListResponse'), READ_ERRORS),
      },
    },
    '/hooks/{id}/test': {
      parameters: [id],
      post: {
        tags,
        operationId: 'testHook',
        summary: 'Send a test event now',
        responses: responses(200, 'How it went (also in the log)', ref('HookDelivery'), READ_ERRORS),
      },
    },
  };
}
