import type { ErrorCode } from '../../common/api-contract.js';
import { ROLES } from '../../common/api-contract.js';
import { EDITOR_LANGUAGES } from '../../common/editor-language-rules.js';
import type { JsonSchema } from '../fields/field.js';
import { ref } from './openapi-schemas.js';

/** How the paths below describe one operation's answers (see `responses` in openapi-document). */
export type Responses = (
  status: number,
  description: string,
  schema: JsonSchema | null,
  codes: readonly ErrorCode[],
) => JsonSchema;

const string: JsonSchema = { type: 'string' };
const stringOrNull: JsonSchema = { type: ['string', 'null'] };
const role: JsonSchema = { type: 'string', enum: [...ROLES] };
const language: JsonSchema = {
  enum: [...EDITOR_LANGUAGES, null],
  description: "The editor language the account chose; null: follow the browser's",
};
const typeLimit: JsonSchema = {
  anyOf: [{ type: 'array', items: string }, { type: 'null' }],
  description: 'The content types (tables or slugs) it is limited to; null: all',
};

function object(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** The shapes of sign-in, accounts and tokens. */
export function accountSchemas(): Record<string, JsonSchema> {
  const abilities = [
    'read',
    'create_rows',
    'change_any_row',
    'change_own_rows',
    'upload',
    'manage_types',
    'manage_accounts',
  ];
  const accountProperties = {
    name: string,
    role,
    content_types: typeLimit,
    disabled: { type: 'boolean' },
    created_at: string,
    updated_at: string,
  };
  const accountRequired = ['name', 'role', 'content_types', 'disabled', 'created_at', 'updated_at'];
  const tokenSummary = {
    name: string,
    role,
    content_types: typeLimit,
    expires_at: stringOrNull,
    revoked_at: stringOrNull,
    last_used_at: stringOrNull,
    created_at: string,
  };
  const inheritedRows = {
    inherited_rows: {
      type: 'integer',
      minimum: 1,
      description: 'Rows that already name this account as author (made under the editor name): its own now',
    },
    notice: { type: 'string', description: 'A sentence saying so, present with inherited_rows' },
  };
  const authMeRequired = [
    'signed_in',
    'via',
    'name',
    'role',
    'content_types',
    'can',
    'accounts_exist',
    'first_run',
    'language',
  ];
  const authMe = {
    signed_in: { type: 'boolean' },
    via: { enum: ['session', 'token', 'local', null] },
    name: stringOrNull,
    role: { enum: [...ROLES, null] },
    content_types: typeLimit,
    can: object(Object.fromEntries(abilities.map((name) => [name, { type: 'boolean' }])), abilities),
    accounts_exist: { type: 'boolean' },
    first_run: { type: 'boolean' },
    two_factor: { anyOf: [ref('TwoFactorStatus'), { type: 'null' }] },
    language: {
      ...language,
      description: 'The editor language a signed-in account chose; null: none, or not an account',
    },
    second_factor_required: {
      type: 'boolean',
      description: 'The password was right; send a code with second_factor_token to /auth/second-factor',
    },
    second_factor_token: { ...string, description: 'The sign-in waiting for its code (5 minutes, once)' },
  };
  return {
    AuthMeResponse: object(authMe, authMeRequired),
    FirstRunResponse: object({ ...authMe, ...inheritedRows }, authMeRequired),
    SignInRequest: object(
      {
        name: string,
        password: string,
        code: {
          ...string,
          description:
            'With two-factor sign-in: a code (or recovery code) checked with the password in one step, which also signs in a name that guesses have locked',
        },
      },
      ['name', 'password'],
    ),
    UpdateMeRequest: object({ language }, []),
    FirstRunRequest: object({ name: string, password: string }, ['name', 'password']),
    AccountSummary: object(accountProperties, accountRequired),
    AccountCreatedResponse: object({ ...accountProperties, ...inheritedRows }, accountRequired),
    AccountListResponse: object({ accounts: { type: 'array', items: ref('AccountSummary') } }, ['accounts']),
    CreateAccountRequest: object({ name: string, role, password: string, content_types: typeLimit }, [
      'name',
      'role',
      'password',
    ]),
    UpdateAccountRequest: object(
      { role, password: string, disabled: { type: 'boolean' }, content_types: typeLimit },
      [],
    ),
    TokenSummary: object(tokenSummary, Object.keys(tokenSummary)),
    TokenListResponse: object({ tokens: { type: 'array', items: ref('TokenSummary') } }, ['tokens']),
    CreateTokenRequest: object(
      {
        name: string,
        role,
        content_types: typeLimit,
        expires_days: { type: ['integer', 'null'], minimum: 1, description: 'Days until it expires; none: never' },
      },
      ['name', 'role'],
    ),
    CreateTokenResponse: object({ ...tokenSummary, token: { ...string, description: 'Shown this once' } }, [
      ...Object.keys(tokenSummary),
      'token',
    ]),
  };
}

const ALWAYS: ErrorCode[] = ['internal_error', 'database_unavailable', 'misdirected_request'];

/** A JSON (or form) body of a component schema. */
function body(name: string): JsonSchema {
  const schema = ref(name);
  return {
    required: true,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

/** `/auth/*` (anyone), `/accounts` and `/tokens` (admins). */
export function accountPaths(responses: Responses): Record<string, JsonSchema> {
  const auth = ['sign-in'];
  const admin = ['accounts and tokens'];
  const adminErrors: ErrorCode[] = ['bad_request', 'unauthorized', 'forbidden', ...ALWAYS];
  const name = { name: 'name', in: 'path', required: true, schema: string };
  const me = ref('AuthMeResponse');
  return {
    '/auth/me': {
      get: {
        tags: auth,
        operationId: 'me',
        summary: 'Who the request is from, and what they may do',
        security: [],
        responses: responses(200, 'The caller', me, ALWAYS),
      },
      patch: {
        tags: auth,
        operationId: 'updateMe',
        summary:
          "Change the signed-in person's own preferences (the editor language); tokens and the local user have none",
        requestBody: body('UpdateMeRequest'),
        responses: responses(200, 'The caller, changed', me, [
          'bad_request',
          'validation_failed',
          'unauthorized',
          'forbidden',
          ...ALWAYS,
        ]),
      },
    },
    '/auth/sign-in': {
      post: {
        tags: auth,
        operationId: 'signIn',
        summary: 'Sign in with a name and password: sets the session cookie (403 when password sign-in is off)',
        security: [],
        requestBody: body('SignInRequest'),
        responses: responses(200, 'Signed in', me, [
          'bad_request',
          'unauthorized',
          'forbidden',
          'too_many_requests',
          ...ALWAYS,
        ]),
      },
    },
    '/auth/sign-out': {
      post: {
        tags: auth,
        operationId: 'signOut',
        summary: 'End the session',
        security: [],
        responses: responses(200, 'Signed out', me, ALWAYS),
      },
    },
    '/auth/first-run': {
      post: {
        tags: auth,
        operationId: 'firstRun',
        summary:
          'Create the first admin account (only with no accounts, on a loopback-only server; with a run token, only by its holder)',
        security: [],
        requestBody: body('FirstRunRequest'),
        responses: responses(201, 'The first admin, signed in', ref('FirstRunResponse'), [
          'bad_request',
          'validation_failed',
          'unauthorized',
          'forbidden',
          'conflict',
          ...ALWAYS,
        ]),
      },
    },
    '/accounts': {
      get: {
        tags: admin,
        operationId: 'listAccounts',
        summary: 'Every account',
        responses: responses(200, 'The accounts', ref('AccountListResponse'), adminErrors),
      },
      post: {
        tags: admin,
        operationId: 'createAccount',
        summary: 'Add an account',
        requestBody: body('CreateAccountRequest'),
        responses: responses(201, 'The new account', ref('AccountCreatedResponse'), [
          ...adminErrors,
          'validation_failed',
          'conflict',
        ]),
      },
    },
    '/accounts/{name}': {
      parameters: [name],
      get: {
        tags: admin,
        operationId: 'getAccount',
        summary: 'One account',
        responses: responses(200, 'The account', ref('AccountSummary'), [...adminErrors, 'not_found']),
      },
      patch: {
        tags: admin,
        operationId: 'changeAccount',
        summary: 'Change an account’s role, password, limit, or disable it',
        requestBody: body('UpdateAccountRequest'),
        responses: responses(200, 'The account as it is now', ref('AccountSummary'), [
          ...adminErrors,
          'validation_failed',
          'not_found',
          'conflict',
        ]),
      },
    },
    '/tokens': {
      get: {
        tags: admin,
        operationId: 'listTokens',
        summary: 'Every API token (never the tokens themselves)',
        responses: responses(200, 'The tokens', ref('TokenListResponse'), adminErrors),
      },
      post: {
        tags: admin,
        operationId: 'createToken',
        summary: 'Make an API token for builds and scripts',
        requestBody: body('CreateTokenRequest'),
        responses: responses(201, 'The token, shown this once', ref('CreateTokenResponse'), [
          ...adminErrors,
          'validation_failed',
          'conflict',
        ]),
      },
    },
    '/tokens/{name}': {
      parameters: [name],
      delete: {
        tags: admin,
        operationId: 'revokeToken',
        summary: 'Revoke a token',
        responses: responses(200, 'The revoked token', ref('TokenSummary'), [...adminErrors, 'not_found']),
      },
    },
  };
}
