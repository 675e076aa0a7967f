import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

/** The shapes of single sign-on (see common/single-sign-on-rules.ts). */
export function singleSignOnSchemas(): Record<string, JsonSchema> {
  return {
    AuthProvidersResponse: {
      type: 'object',
      properties: {
        password: {
          type: 'boolean',
          description: 'Whether POST /auth/sign-in takes a name and password (off with --no-password-sign-in)',
        },
        single_sign_on: {
          anyOf: [
            {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'The provider, as "Sign in with <name>" says it' },
                start_url: { type: 'string', description: 'Where a browser goes to sign in through it' },
              },
              required: ['name', 'start_url'],
              additionalProperties: false,
            },
            { type: 'null' },
          ],
          description: 'The OpenID Connect provider, or null when none is configured (--oidc-issuer)',
        },
      },
      required: ['password', 'single_sign_on'],
      additionalProperties: false,
    },
  };
}

/** A browser redirect (303, where to in Location); a 404 when no identity provider is configured. */
function redirect(responses: Responses, description: string): JsonSchema {
  const answers = responses(303, description, null, ['not_found', ...ALWAYS_ERRORS]);
  const moved = answers['303'] as Record<string, unknown>;
  return { ...answers, '303': { ...moved, headers: { Location: { schema: { type: 'string' } } } } };
}

/** `/auth/providers` (public) and the two steps of a browser's sign-in through the provider. */
export function singleSignOnPaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['single sign-on'];
  return {
    '/auth/providers': {
      get: {
        tags,
        operationId: 'signInProviders',
        summary: 'How to sign in here: with a password, and through which identity provider',
        security: [],
        responses: responses(200, 'The ways to sign in', ref('AuthProvidersResponse'), ALWAYS_ERRORS),
      },
    },
    '/auth/oidc/start': {
      get: {
        tags,
        operationId: 'singleSignOnStart',
        summary:
          'For a browser: off to the identity provider (authorization code flow with PKCE); keeps the flow in a short cookie',
        security: [],
        responses: redirect(
          responses,
          'To the provider; or, when it cannot be reached, to /?sso_error=sso_unavailable',
        ),
      },
    },
    '/auth/oidc/callback': {
      get: {
        tags,
        operationId: 'singleSignOnCallback',
        summary:
          'Where the provider sends the browser back: signed in (the session cookie) and on to /, or to /?sso_error=CODE',
        security: [],
        responses: redirect(responses, 'To the editor, signed in; or to the sign-in page with sso_error'),
      },
    },
  };
}
