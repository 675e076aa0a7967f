import type { ColumnDescriptor } from '../../common/api-contract.js';
import type { LocalesDocument } from '../../common/locale-contract.js';
import type { ContentType } from '../content/content-type.js';
import type { JsonSchema } from '../fields/field.js';
import { columnSchema } from '../fields/field-registry.js';
import { localizedColumnsOf } from '../locales/localized-values.js';

/**
 * What the document says of localized columns (`"localized": true`): a row read in one locale
 * (`?locale=CODE`) answers each localized field's value in that locale after its fallback chain,
 * with `locale` and `fallbacks`; a row read with `?locale=all` answers each localized field as an
 * object of every locale's own value. Types without localized columns are described as before.
 */

/** The name of the shared schema of the site's locale codes. */
export const LOCALE_CODE_SCHEMA = 'LocaleCode';

const localeCode: JsonSchema = { $ref: `#/components/schemas/${LOCALE_CODE_SCHEMA}` };

/** Whether a content type has a localized column (and so its rows carry `locale` and `fallbacks`). */
export function hasLocalizedColumns(type: ContentType): boolean {
  return localizedColumnsOf(type.columns).length > 0;
}

/** The site's locale codes, as `locale` and `fallbacks` name them. */
export function localeCodeSchema(locales: LocalesDocument): JsonSchema {
  return {
    type: 'string',
    enum: locales.locales.map((locale) => locale.code),
    description: `One of the site’s locales (GET /api/locales); ${locales.default} is the default`,
  };
}

/** `?locale=`, on the reads and writes of a type with localized columns. */
export function localeParameter(locales: LocalesDocument): JsonSchema {
  return {
    name: 'locale',
    in: 'query',
    required: false,
    description:
      'The locale localized fields are read or written in (any case; the default when left out): a read answers each in that locale after its fallback chain, with `locale` and `fallbacks`; a write sets that locale’s own value (null or empty clears it, and reads fall back again). `all`: every locale at once, each localized field an object keyed by locale code (a write may name only some). Shared fields are the same in every locale. An unknown locale is a 400 unknown_locale listing the site’s',
    schema: {
      type: 'string',
      enum: [...locales.locales.map((locale) => locale.code), 'all'],
      default: locales.default,
    },
  };
}

/** The members a row read in one locale adds: the locale, and which localized fields fell back to which locale. */
export function oneLocaleMembers(type: ContentType): Record<string, JsonSchema> {
  const localized = localizedColumnsOf(type.columns);
  return {
    locale: { ...localeCode, description: 'The locale the row was read in' },
    fallbacks: {
      type: 'object',
      description:
        'Each localized field whose value came from another locale of the chain, with that locale (none: an empty object)',
      properties: Object.fromEntries(localized.map((column) => [column.name, localeCode])),
      additionalProperties: false,
    },
  };
}

/** The member a row read in every locale at once adds. */
export function allLocalesMembers(): Record<string, JsonSchema> {
  return { locale: { const: 'all', description: 'Read with ?locale=all: localized fields hold every locale' } };
}

/** A localized column's value in one locale: after fallback on reads, that locale's own on writes (null clears it). */
export function inOneLocale(column: ColumnDescriptor, use: 'read' | 'write'): JsonSchema {
  // Another locale's value may be missing along its whole chain, so even a required column may read null.
  const schema = columnSchema({ ...column, required: false }, use);
  const said =
    use === 'read'
      ? 'in the locale read, after its fallback chain (`fallbacks` says when from another); null when the chain holds none'
      : 'in the locale written; null or empty clears that locale’s own value (reads fall back again)';
  const described = typeof schema.description === 'string' ? ` ${schema.description}.` : '';
  return { ...schema, description: `${column.label || column.name}, localized:${described} ${said}` };
}

/**
 * A localized column's value in every locale (`?locale=all`): an object keyed by locale code, each
 * that locale's own value (null: none). Reads name every locale; a write names those it changes
 * (null clears one), and a create names the default locale's value of a required column.
 */
export function inAllLocales(
  column: ColumnDescriptor,
  use: 'read' | 'write',
  locales: LocalesDocument,
  create = false,
): JsonSchema {
  const { title, description: _description, ...own } = columnSchema({ ...column, required: false }, use);
  const value = acceptsNull(own) ? own : { anyOf: [own, { type: 'null' }] };
  const codes = locales.locales.map((locale) => locale.code);
  const required = use === 'read' ? codes : create && requiredOnCreate(column) ? [locales.default] : [];
  return {
    type: 'object',
    ...(title === undefined ? {} : { title }),
    description: `${title ?? column.name}, localized: ${
      use === 'read'
        ? 'each locale’s own value (null: none; a read in that locale falls back)'
        : 'the locales’ values to set, by locale code (locales left out keep theirs; null clears one)'
    }`,
    properties: Object.fromEntries(codes.map((code) => [code, value])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** Whether a create must give the column (slugs are made from their parent; conditional columns only while shown). */
export function requiredOnCreate(column: ColumnDescriptor): boolean {
  return column.required && column.type !== 'slug' && column.when === undefined;
}

/** Whether a schema (as columnSchema makes them) already takes null. */
function acceptsNull(schema: JsonSchema): boolean {
  if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return true;
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  return Array.isArray(union) && union.some(acceptsNull);
}
