import type { ErrorCode } from '../../common/api-contract.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';

/** The media type of an event stream's answer. */
export const EVENT_STREAM_TYPE = 'text/event-stream';

/** `/events`: the change feed as Server-Sent Events (server/http/event-routes.ts). */
export function eventPaths(responses: Responses): Record<string, JsonSchema> {
  const errors: ErrorCode[] = ['bad_request', 'bad_cursor', 'cursor_expired', 'too_many_requests', ...ALWAYS_ERRORS];
  const answers = responses(200, '', null, errors) as Record<string, JsonSchema>;
  answers['200'] = {
    description:
      'An open stream: each committed change as `id: CURSOR`, `event: change`, `data: ChangeEntry` (JSON); a `: heartbeat` comment now and then; `event: error` with the error body (410 cursor_expired) before the server ends it',
    headers: {
      'Cache-Control': { schema: { type: 'string', const: 'no-cache' } },
      'X-Accel-Buffering': { description: 'Tells proxies not to hold the stream back', schema: { const: 'no' } },
    },
    content: { [EVENT_STREAM_TYPE]: { schema: { type: 'string' } } },
  };
  return {
    '/events': {
      get: {
        tags: ['change feed'],
        operationId: 'events',
        summary:
          'The change feed as Server-Sent Events, as changes commit on any server of the database. A credential limited to some content types gets their changes only. Beyond the open streams a credential or the server takes: 429',
        parameters: [
          {
            name: 'types',
            in: 'query',
            description: 'Only these content types’ changes: tables or slugs, separated by commas',
            schema: { type: 'string' },
          },
          {
            name: 'since',
            in: 'query',
            description: 'Resume after this cursor (a change’s or a page’s next); without it, changes from now on',
            schema: { type: 'string' },
          },
          {
            name: 'Last-Event-ID',
            in: 'header',
            description: 'Sent by a reconnecting EventSource: resume after this cursor (wins over since)',
            schema: { type: 'string' },
          },
        ],
        responses: answers,
      },
    },
  };
}
