import type { ErrorCode } from '../../common/api-contract.js';
import { MAX_LOCALE_CODE, MAX_LOCALE_LABEL, MAX_LOCALES } from '../../common/locale-rules.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { JSON_TYPE } from './openapi-content-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { IF_MATCH } from './openapi-etags.js';
import { ref } from './openapi-schemas.js';

const code: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_LOCALE_CODE,
  description: 'A BCP 47 language tag, kept in canonical case (`de-at` is kept as `de-AT`); `all` is reserved',
  examples: ['de-AT'],
};

/** The shapes of the site's languages (common/locale-contract.ts). */
export function localeSchemas(): Record<string, JsonSchema> {
  return {
    SiteLocale: {
      type: 'object',
      properties: {
        code,
        label: { type: 'string', minLength: 1, maxLength: MAX_LOCALE_LABEL, examples: ['Deutsch (Österreich)'] },
        fallback: {
          type: 'array',
          items: code,
          description:
            'The listed locales a value missing in this one is taken from, in order (none: left out). The whole order: it is not followed through their own chains, and the default is not added unless named. Never the locale itself, no loops; the default locale has none',
        },
      },
      required: ['code', 'label'],
      additionalProperties: false,
    },
    LocalesDocument: {
      type: 'object',
      properties: {
        default: { ...code, description: 'The code of the locale read and written when a request names none' },
        locales: { type: 'array', items: ref('SiteLocale'), minItems: 1, maxItems: MAX_LOCALES },
      },
      required: ['default', 'locales'],
      additionalProperties: false,
      examples: [
        {
          default: 'en',
          locales: [
            { code: 'en', label: 'English' },
            { code: 'de', label: 'Deutsch', fallback: ['en'] },
            { code: 'de-AT', label: 'Deutsch (Österreich)', fallback: ['de', 'en'] },
          ],
        },
      ],
    },
  };
}

const CHANGE_ERRORS: ErrorCode[] = [
  'bad_request',
  'validation_failed',
  'conflict',
  'stale_write',
  'unsupported_media_type',
  'payload_too_large',
  ...ALWAYS_ERRORS,
];

/** `/locales`: the site's languages. */
export function localePaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['locales'];
  return {
    '/locales': {
      get: {
        tags,
        operationId: 'locales',
        summary:
          'The site’s languages: the default and each locale with its fallback chain (before any are set, English alone)',
        responses: responses(200, 'The site’s languages', ref('LocalesDocument'), ALWAYS_ERRORS),
      },
      put: {
        tags,
        operationId: 'replaceLocales',
        summary:
          'Replaces the site’s languages (admins): 400 naming each problem; 409 locale_in_use for removing a locale that holds values, unless force',
        parameters: [
          {
            name: 'force',
            in: 'query',
            required: false,
            description: 'Remove locales even while they hold values (the values are deleted)',
            schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
          },
          IF_MATCH,
        ],
        requestBody: { required: true, content: { [JSON_TYPE]: { schema: ref('LocalesDocument') } } },
        responses: responses(
          200,
          'The site’s languages as kept (ETag: the tag a GET answers)',
          ref('LocalesDocument'),
          CHANGE_ERRORS,
        ),
      },
    },
  };
}
