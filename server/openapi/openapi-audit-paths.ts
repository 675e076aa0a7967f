import type { ErrorCode } from '../../common/api-contract.js';
import { AUDIT_ACTIONS } from '../../common/audit-contract.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

const string: JsonSchema = { type: 'string' };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const integer: JsonSchema = { type: 'integer', minimum: 0 };

function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The shapes of the audit log (see common/audit-contract.ts). */
export function auditSchemas(): Record<string, JsonSchema> {
  return {
    AuditEntry: object({
      id: { type: 'integer', minimum: 1, description: 'Numbers every event in the order it was recorded' },
      at: { ...string, description: 'When, as a server timestamp (UTC YYYY-MM-DD HH:MM:SS.ffffff)' },
      action: { ...string, description: `What happened: ${AUDIT_ACTIONS.join(', ')}` },
      actor: { ...stringOrNull, description: 'The account or token name, cli, or null (a failed sign-in)' },
      address: { ...stringOrNull, description: 'The client address as the server saw it; null for the command line' },
      target: { ...stringOrNull, description: 'The account, token, hook, content type or backup it was done to' },
      detail: { type: 'object', description: 'A few facts about it; never a secret' },
    }),
    AuditListResponse: object({
      total: integer,
      limit: integer,
      offset: integer,
      retention_days: { type: 'integer', minimum: 1, description: 'Days an event is kept (--audit-days)' },
      events: { type: 'array', items: ref('AuditEntry') },
    }),
  };
}

/** `/audit`: the audit log, for admins. */
export function auditPaths(responses: Responses): Record<string, JsonSchema> {
  const text = (name: string, description: string) => ({ name, in: 'query', description, schema: string });
  const errors: ErrorCode[] = ['bad_request', ...ALWAYS_ERRORS];
  return {
    '/audit': {
      get: {
        tags: ['audit log'],
        operationId: 'auditLog',
        summary: 'Security events, newest first (admins with an unlimited credential only)',
        parameters: [
          text('action', 'Only events of this action code'),
          text('actor', 'Only events by this account or token name (cli: the command line)'),
          text('target', 'Only events done to this account, token, hook id or content-type slug'),
          text('since', 'Only events at or after this UTC date (YYYY-MM-DD, the whole day) or date and time'),
          text('until', 'Only events at or before this UTC date (the whole day) or date and time'),
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
          { name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } },
        ],
        responses: responses(200, 'A page of events', ref('AuditListResponse'), errors),
      },
    },
  };
}
