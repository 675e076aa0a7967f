import type { ErrorCode } from '../../common/api-contract.js';
import type { JsonSchema } from '../fields/field.js';
import type { Responses } from './openapi-account-paths.js';
import { ALWAYS_ERRORS } from './openapi-error-sets.js';
import { ref } from './openapi-schemas.js';

const string: JsonSchema = { type: 'string' };

function object(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A JSON (or form) body of a component schema. */
function body(name: string): JsonSchema {
  const schema = ref(name);
  return {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

/** The shapes of two-factor sign-in (see common/two-factor-contract.ts). */
export function twoFactorSchemas(): Record<string, JsonSchema> {
  return {
    TwoFactorStatus: object(
      {
        enabled: { type: 'boolean', description: 'Whether signing in asks for a code after the password' },
        enrolment_required: {
          type: 'boolean',
          description: 'Whether the server (--require-2fa) requires this account to enrol before anything else',
        },
        recovery_codes_left: { type: 'integer', minimum: 0 },
      },
      ['enabled', 'enrolment_required', 'recovery_codes_left'],
    ),
    TwoFactorEnrolmentResponse: object(
      {
        secret: { ...string, description: 'The TOTP secret in base32, for typing into an app; shown this once' },
        uri: { ...string, description: 'The otpauth://totp/ URI the QR code holds' },
        qr_code: { ...string, description: 'The QR code as a data:image/png;base64 URL' },
        qr_path: object({ size: { type: 'integer', minimum: 21 }, d: string }, ['size', 'd']),
      },
      ['secret', 'uri', 'qr_code', 'qr_path'],
    ),
    TwoFactorCodeRequest: object({ code: { ...string, description: 'Six digits from the app' } }, ['code']),
    TwoFactorConfirmedResponse: object(
      {
        status: ref('TwoFactorStatus'),
        recovery_codes: { type: 'array', items: string, description: 'Ten single-use codes, shown this once' },
      },
      ['status', 'recovery_codes'],
    ),
    TwoFactorDisableRequest: object({ password: string, code: string }, ['password', 'code']),
    SecondFactorRequest: object(
      {
        token: { ...string, description: 'second_factor_token from the sign-in answer' },
        code: { ...string, description: 'Six digits from the app, or a recovery code' },
      },
      ['token', 'code'],
    ),
  };
}

/** `/auth/second-factor` (anyone holding a sign-in's token), `/account/two-factor/*` (any signed-in account), an admin's reset. */
export function twoFactorPaths(responses: Responses): Record<string, JsonSchema> {
  const tags = ['two-factor sign-in'];
  const own: ErrorCode[] = ['bad_request', ...ALWAYS_ERRORS];
  const status = ref('TwoFactorStatus');
  return {
    '/auth/second-factor': {
      post: {
        tags,
        operationId: 'signInSecondFactor',
        summary: 'Complete a sign-in with a code from the app or a recovery code: sets the session cookie',
        security: [],
        requestBody: body('SecondFactorRequest'),
        responses: responses(200, 'Signed in', ref('AuthMeResponse'), [...own, 'too_many_requests']),
      },
    },
    '/account/two-factor': {
      get: {
        tags,
        operationId: 'twoFactorStatus',
        summary: 'Whether one’s own two-factor sign-in is on',
        responses: responses(200, 'The state', status, ALWAYS_ERRORS),
      },
    },
    '/account/two-factor/enrol': {
      post: {
        tags,
        operationId: 'twoFactorEnrol',
        summary: 'Start enrolling an authenticator app: a new secret and its QR code, shown once',
        responses: responses(200, 'The secret', ref('TwoFactorEnrolmentResponse'), [...own, 'conflict']),
      },
    },
    '/account/two-factor/confirm': {
      post: {
        tags,
        operationId: 'twoFactorConfirm',
        summary: 'Confirm the enrolment with a code from the app: turns two-factor sign-in on',
        requestBody: body('TwoFactorCodeRequest'),
        responses: responses(200, 'On, with the recovery codes', ref('TwoFactorConfirmedResponse'), [
          ...own,
          'conflict',
        ]),
      },
    },
    '/account/two-factor/disable': {
      post: {
        tags,
        operationId: 'twoFactorDisable',
        summary: 'Turn one’s own two-factor sign-in off, with the password and a code',
        requestBody: body('TwoFactorDisableRequest'),
        responses: responses(200, 'Off', status, [...own, 'conflict', 'too_many_requests']),
      },
    },
    '/accounts/{name}/two-factor': {
      parameters: [{ name: 'name', in: 'path', required: true, schema: string }],
      delete: {
        tags,
        operationId: 'twoFactorReset',
        summary: 'Turn another account’s two-factor sign-in off (a lost phone); admins only',
        responses: responses(200, 'Off', status, [...ALWAYS_ERRORS, 'not_found']),
      },
    },
  };
}
