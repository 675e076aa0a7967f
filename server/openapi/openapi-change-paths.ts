import type { ErrorCode } from '../../common/api-contract.js';
import { DEFAULT_CHANGES_PAGE, MAX_CHANGES_PAGE } from '../changes/change-feed-service.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

const string: JsonSchema = { type: 'string' };

/** The actions a change feed entry names (server/changes/change-feed.ts ChangeAction). */
const CHANGE_ACTIONS = ['create', 'update', 'delete', 'restore', 'type_change', 'media'];

/** The shapes of the change feed (see server/changes/change-feed.ts). */
export function changeSchemas(): Record<string, JsonSchema> {
  return {
    ChangeEntry: {
      type: 'object',
      properties: {
        cursor: { ...string, description: 'Opaque; pass it back as since to read what came after' },
        type: { ...string, description: 'The content type’s table; media for an upload' },
        id: {
          ...string,
          description: 'The row’s id; for type_change, the type’s table again; for media, the upload’s /media/ path',
        },
        action: { type: 'string', enum: CHANGE_ACTIONS },
        at: { ...string, description: 'When the write committed (ISO 8601, UTC)' },
        by: { type: ['string', 'null'], description: 'The account or token name, or null (command line, schedule)' },
        locales: {
          type: 'array',
          items: string,
          description: 'The locales the write touched, where content is localized',
        },
      },
      required: ['cursor', 'type', 'id', 'action', 'at', 'by'],
      additionalProperties: false,
    },
    ChangePage: {
      type: 'object',
      properties: {
        changes: { type: 'array', items: ref('ChangeEntry') },
        next: { ...string, description: 'Where the next page starts: the last change’s cursor, or since again' },
      },
      required: ['changes', 'next'],
      additionalProperties: false,
    },
  };
}

/** `/changes`: the durable change feed. */
export function changePaths(responses: Responses): Record<string, JsonSchema> {
  const errors: ErrorCode[] = ['bad_request', 'bad_cursor', 'cursor_expired', ...ALWAYS_ERRORS];
  return {
    '/changes': {
      get: {
        tags: ['change feed'],
        operationId: 'changes',
        summary:
          'The committed changes after a cursor, oldest first, with no gaps or repeats on every server of the database. A credential limited to some content types reads their changes only',
        parameters: [
          {
            name: 'since',
            in: 'query',
            description: 'A cursor from a change or a page’s next; 0 starts at the beginning of what is kept',
            schema: { ...string, default: '0' },
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_CHANGES_PAGE, default: DEFAULT_CHANGES_PAGE },
          },
          {
            name: 'types',
            in: 'query',
            description: 'Only these content types’ changes: tables or slugs, separated by commas',
            schema: string,
          },
        ],
        responses: responses(200, 'A page of changes', ref('ChangePage'), errors),
      },
    },
  };
}
