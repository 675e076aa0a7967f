import type { ContentTypeKind, ErrorCode } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import { DEFAULT_LOCALES } from '../../common/locale-rules.js';
import type { ContentType } from '../content/content-type.js';
import type { JsonSchema } from '../fields/field.js';
import { typeNames } from '../types-gen/type-names.js';
import { accountPaths, accountSchemas } from './openapi-account-paths.js';
import { assetPaths, assetSchemas } from './openapi-asset-paths.js';
import { auditPaths, auditSchemas } from './openapi-audit-paths.js';
import { changePaths, changeSchemas } from './openapi-change-paths.js';
import { contentTypePaths, describePaths, JSON_TYPE, mediaPaths, rowPaths } from './openapi-content-paths.js';
import { notModifiedResponse, withConditionalGets } from './openapi-etags.js';
import { eventPaths } from './openapi-event-paths.js';
import { localePaths, localeSchemas } from './openapi-locale-paths.js';
import { hasLocalizedColumns, LOCALE_CODE_SCHEMA, localeCodeSchema } from './openapi-localized-schemas.js';
import { hookPaths, publishingSchemas, schedulePaths } from './openapi-publishing-paths.js';
import { revisionPaths, revisionSchemas, typeChangePaths } from './openapi-revision-paths.js';
import { errorCodesByStatus, errorMeaning, ref, sharedSchemas, typeSchemas } from './openapi-schemas.js';
import { singleSignOnPaths, singleSignOnSchemas } from './openapi-single-sign-on-paths.js';
import { starterPaths, starterSchemas } from './openapi-starter-paths.js';
import { twoFactorPaths, twoFactorSchemas } from './openapi-two-factor-paths.js';

/** An OpenAPI 3.1 document as a plain object. */
export type OpenApiDocument = JsonSchema & {
  openapi: string;
  paths: Record<string, JsonSchema>;
  components: { schemas: Record<string, JsonSchema>; [section: string]: Record<string, JsonSchema> };
  /** Each content type's table, slug and the name of its row schema (`news` -> `News`). */
  'x-quire-content-types': {
    table: string;
    slug: string;
    title: string;
    name: string;
    kind: ContentTypeKind;
    /** Present on a type with localized columns: its shapes in every locale at once are `<name>AllLocales...`. */
    localized?: true;
  }[];
};

/** What the document says about the server beyond its content types. */
export interface DocumentOptions {
  /** Quire's version, the document's `info.version`. */
  version: string;
  /** The site's locales, which rows of types with localized columns are read and written in (default: English alone). */
  locales?: LocalesDocument;
}

/**
 * The OpenAPI 3.1 description of the API as it is now: the generic endpoints, and for each content
 * type its own list, row and write paths with its row schema, so the document changes when a type does.
 */
export function openApiDocument(types: readonly ContentType[], options: DocumentOptions): OpenApiDocument {
  const shared = {
    ...sharedSchemas(),
    ...accountSchemas(),
    ...revisionSchemas(),
    ...publishingSchemas(),
    ...starterSchemas(),
    ...localeSchemas(),
    ...auditSchemas(),
    ...changeSchemas(),
    ...assetSchemas(),
    ...twoFactorSchemas(),
    ...singleSignOnSchemas(),
  };
  const locales = options.locales ?? DEFAULT_LOCALES;
  // Reserved whether or not a type is localized, so localizing one never renames another.
  const names = typeNames(types, [...Object.keys(shared), LOCALE_CODE_SCHEMA]);
  const schemas: Record<string, JsonSchema> = { ...shared };
  if (types.some(hasLocalizedColumns)) schemas[LOCALE_CODE_SCHEMA] = localeCodeSchema(locales);
  const paths: Record<string, JsonSchema> = {
    ...contentTypePaths(responses, types.some(hasLocalizedColumns) ? locales : null),
    ...starterPaths(responses),
    ...localePaths(responses),
    ...mediaPaths(responses),
    ...assetPaths(responses),
    ...describePaths(responses),
    ...accountPaths(responses),
    ...auditPaths(responses),
    ...changePaths(responses),
    ...eventPaths(responses),
    ...twoFactorPaths(responses),
    ...singleSignOnPaths(responses),
    ...typeChangePaths(responses),
    ...hookPaths(responses),
  };
  for (const type of types) {
    const name = names.get(type.table) ?? type.table;
    Object.assign(schemas, typeSchemas(type, name, locales));
    Object.assign(
      paths,
      rowPaths(type, name, responses, locales),
      revisionPaths(type, name, responses, locales),
      schedulePaths(type, name, responses),
    );
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Quire content API',
      version: options.version,
      description:
        'Content of this Quire server, generated from its content types as they are now. Errors always have the ErrorBody shape.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/api', description: 'This server' }],
    security: [{}, { bearer: [] }],
    tags: [
      { name: 'content types' },
      ...types.map((type) => ({ name: type.table, description: type.title })),
      { name: 'locales', description: 'The site’s languages' },
      { name: 'media' },
      { name: 'description' },
      { name: 'sign-in' },
      { name: 'accounts and tokens', description: 'Admins only' },
      { name: 'build hooks', description: 'Admins only' },
    ],
    paths: withConditionalGets(paths),
    components: {
      schemas,
      responses: { ...errorResponses(), ...notModifiedResponse() },
      securitySchemes: securitySchemes(),
    },
    'x-quire-content-types': types.map((type) => ({
      table: type.table,
      slug: type.slug,
      title: type.title,
      name: names.get(type.table) ?? type.table,
      kind: type.kind,
      ...(hasLocalizedColumns(type) ? { localized: true as const } : {}),
    })),
  };
}

/** One reusable response per error status, naming the codes it carries. */
function errorResponses(): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of errorCodesByStatus()) {
    responses[`Error${status}`] = {
      description: codes.map((code) => `${code}: ${errorMeaning(code)}`).join('. '),
      content: { [JSON_TYPE]: { schema: ref('ErrorBody') } },
    };
  }
  return responses;
}

function securitySchemes(): Record<string, JsonSchema> {
  return {
    bearer: {
      type: 'http',
      scheme: 'bearer',
      description: 'Needed only when the server was started with a token or has accounts (then a 401 says so)',
    },
  };
}

/** A success response and the error responses of `codes`, by status. */
function responses(
  status: number,
  description: string,
  schema: JsonSchema | null,
  codes: readonly ErrorCode[],
): JsonSchema {
  const byStatus = errorCodesByStatus();
  const answer: Record<string, JsonSchema> = {
    [String(status)]: {
      description,
      ...(schema ? { content: { [JSON_TYPE]: { schema } } } : {}),
    },
  };
  for (const [errorStatus, errorCodes] of byStatus) {
    if (errorCodes.some((code) => codes.includes(code))) {
      answer[String(errorStatus)] = { $ref: `#/components/responses/Error${errorStatus}` };
    }
  }
  return answer;
}
