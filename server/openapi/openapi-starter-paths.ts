import type { ErrorCode } from '../../common/api-contract.js';
import { STARTER_SETS } from '../../common/starter-contract.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { JSON_TYPE } from './openapi-content-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

const FORM_TYPE = 'application/x-www-form-urlencoded';
const string: JsonSchema = { type: 'string' };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const setName: JsonSchema = { type: 'string', enum: [...STARTER_SETS] };
const typeName = { slug: string, title: string };

function object(properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

/** The shapes of the first run's starter sets. */
export function starterSchemas(): Record<string, JsonSchema> {
  return {
    StarterSet: object({
      set: setName,
      title: string,
      description: { ...string, description: 'One sentence: what the site gets' },
      types: { type: 'array', items: object(typeName), description: 'The content types the site holds after it' },
    }),
    StartersResponse: object({
      choice: { anyOf: [setName, { type: 'null' }], description: 'The set chosen, once one was' },
      chosen_by: stringOrNull,
      chosen_at: stringOrNull,
      offer: {
        type: 'boolean',
        description:
          'No choice yet, the starter types as Quire made them (no type made, changed or removed since) and no rows: the editor offers the choice',
      },
      starters: {
        type: 'array',
        items: object({ ...typeName, table: string, rows: { type: 'integer', minimum: 0 } }),
        description: 'The content types Quire made (custom false), with their row counts',
      },
      sets: { type: 'array', items: ref('StarterSet') },
    }),
    StarterChoiceRequest: object({ set: setName }),
  };
}

const CHOICE_ERRORS: ErrorCode[] = [
  'bad_request',
  'validation_failed',
  'conflict',
  'unsupported_media_type',
  'payload_too_large',
  ...ALWAYS_ERRORS,
];

/** `/starters`: the first run's choice of starter types. */
export function starterPaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['content types'];
  return {
    '/starters': {
      get: {
        tags,
        operationId: 'starterSets',
        summary: 'The starter types, whether the first run’s choice is still open, and the sets to choose from',
        responses: responses(200, 'The starter sets and the choice made', ref('StartersResponse'), ALWAYS_ERRORS),
      },
      post: {
        tags,
        operationId: 'chooseStarterSet',
        summary:
          'Keep the starter types, start empty, or take a blog’s or a docs site’s types instead (admins; one transaction; 409 naming the starter types that hold rows)',
        requestBody: {
          required: true,
          content: {
            [JSON_TYPE]: { schema: ref('StarterChoiceRequest') },
            [FORM_TYPE]: { schema: ref('StarterChoiceRequest') },
          },
        },
        responses: responses(200, 'The starter sets as they are now', ref('StartersResponse'), CHOICE_ERRORS),
      },
    },
  };
}
