import type { JsonSchema } from '../fields/field.js';
import type { OpenApiDocument } from '../openapi/openapi-document.js';
import { allLocalesShapeNames, shapeNames } from './type-names.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * TypeScript declarations of the API: one exported type per schema of the OpenAPI document (each
 * content type's row `News`, its list response `NewsList`, its write bodies...), select options as
 * string-literal unions, and `Collections`, every content type's row by its table. Made from the
 * document, so the types and the document never disagree.
 */
export function typeScriptDeclarations(document: OpenApiDocument): string {
  const schemas = document.components.schemas;
  const out: string[] = [
    `// TypeScript declarations of the Quire content API (version ${String((document.info as JsonSchema).version)}).`,
    '// Generated from the content types as they are now: regenerate after changing one',
    '// (`quire types --out FILE`, or GET /api/types.d.ts).',
    '',
  ];
  for (const [name, schema] of Object.entries(schemas)) {
    out.push(...comment(schema.description, ''));
    if (isPlainObject(schema)) {
      out.push(`export interface ${name} ${objectType(schema, '')}`, '');
    } else {
      out.push(`export type ${name} = ${typeOf(schema, '')};`, '');
    }
  }
  const types = document['x-quire-content-types'];
  out.push('/**');
  out.push(' * Every content type by its table (the :type of /api/cms/:type): its kind, its row and its responses.');
  out.push(' * A single type has no list: GET /api/cms/:type answers `item`, its one row.');
  if (types.some((type) => type.localized)) {
    out.push(' * A type with localized columns also has `allLocales`: the same read with ?locale=all.');
  }
  out.push(' */');
  out.push('export interface Collections {');
  for (const { table, name, kind, localized } of types) {
    const reads = (shapes: { row: string; list: string; item: string }) =>
      `row: ${shapes.row};${kind === 'single' ? '' : ` list: ${shapes.list};`} item: ${shapes.item}`;
    const all = localized ? `; allLocales: { ${reads(allLocalesShapeNames(name))} }` : '';
    out.push(`  ${propertyName(table)}: { kind: '${kind}'; ${reads(shapeNames(name))}${all} };`);
  }
  out.push('}', '');
  return out.join('\n');
}

/** An object schema with a fixed set of members (an interface). */
function isPlainObject(schema: JsonSchema): boolean {
  return schema.type === 'object' && typeof schema.properties === 'object' && schema.additionalProperties !== true;
}

function comment(description: unknown, indent: string): string[] {
  if (typeof description !== 'string' || description === '') return [];
  return [`${indent}/** ${description.replaceAll('*/', '*\\/')} */`];
}

function propertyName(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `{ a: string; b?: number }` from an object schema's properties. */
function objectType(schema: JsonSchema, indent: string): string {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    lines.push(...comment(property.description ?? property.title, inner));
    lines.push(`${inner}${propertyName(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`);
  }
  const extra = schema.additionalProperties;
  if (extra === true) lines.push(`${inner}[member: string]: unknown;`);
  else if (extra && typeof extra === 'object')
    lines.push(`${inner}[member: string]: ${typeOf(extra as JsonSchema, inner)};`);
  return lines.length === 0 ? '{}' : `{\n${lines.join('\n')}\n${indent}}`;
}

/** The TypeScript type of a schema (the subset of JSON Schema the document uses). */
function typeOf(schema: JsonSchema, indent: string): string {
  if (typeof schema.$ref === 'string') return schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return union.map((member) => grouped(typeOf(member, indent))).join(' | ');
  if (Array.isArray(schema.type)) {
    return schema.type.map((type) => grouped(typeOf({ ...schema, type }, indent))).join(' | ');
  }
  switch (schema.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array': {
      if (schema.maxItems === 0) return '[]';
      return schema.items ? `${grouped(typeOf(schema.items as JsonSchema, indent))}[]` : 'unknown[]';
    }
    case 'object': {
      if (schema.properties) return objectType(schema, indent);
      const extra = schema.additionalProperties;
      return extra && typeof extra === 'object'
        ? `Record<string, ${typeOf(extra as JsonSchema, indent)}>`
        : 'Record<string, unknown>';
    }
    default:
      return 'unknown';
  }
}

/** Parenthesises a union where it is part of a larger type (an array's element, a union's member). */
function grouped(type: string): string {
  let depth = 0;
  for (let at = 0; at < type.length; at++) {
    const char = type[at];
    if (char === '{' || char === '(' || char === '[' || char === '<') depth++;
    else if (char === '}' || char === ')' || char === ']' || char === '>') depth--;
    else if (char === '"') at = skipString(type, at);
    else if (char === '|' && depth === 0) return `(${type})`;
  }
  return type;
}

/** The index of the quote closing the JSON string that starts at `start`. */
function skipString(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at;
  }
  return text.length;
}
