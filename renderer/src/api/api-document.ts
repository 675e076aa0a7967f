/**
 * Reading the server's OpenAPI document (`GET /api/openapi.json`) for the API reference page:
 * its operations per content type, a short type for each schema, and a curl line per operation.
 */

/** A JSON Schema or any other part of the document, as plain data. */
export type DocumentPart = { [key: string]: unknown };

/** The parts of the OpenAPI document the editor reads. */
export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, DocumentPart>>;
  components: { schemas: Record<string, DocumentPart> };
  'x-quire-content-types': { table: string; slug: string; title: string; name: string }[];
}

/** One documented operation. */
export interface ApiOperation {
  method: string;
  path: string;
  summary: string;
  /** Query parameters: name, description and a short type. */
  query: { name: string; description: string; type: string }[];
  /** The JSON body's schema name, if it takes one. */
  body: string | null;
  /** Statuses it answers with, in order. */
  statuses: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The operations on a content type's paths (`/cms/<table>` and `/cms/<table>/{id}`), in reading order. */
export function operationsFor(document: ApiDocument, table: string): ApiOperation[] {
  return operationsOn(document, [`/cms/${table}`, `/cms/${table}/{id}`]);
}

/** The operations on the given paths, each path's methods in GET, POST, PUT, PATCH, DELETE order. */
export function operationsOn(document: ApiDocument, paths: string[]): ApiOperation[] {
  const found: ApiOperation[] = [];
  for (const path of paths) {
    const item = document.paths[path];
    if (!item) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = (operation.parameters ?? []) as DocumentPart[];
      const content = (operation.requestBody as DocumentPart | undefined)?.content as
        | Record<string, { schema?: DocumentPart }>
        | undefined;
      const bodyRef = content?.['application/json']?.schema?.$ref;
      found.push({
        method: method.toUpperCase(),
        path,
        summary: String(operation.summary ?? ''),
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => ({
            name: String(parameter.name),
            description: String(parameter.description ?? ''),
            type: shortType((parameter.schema ?? {}) as DocumentPart),
          })),
        body: typeof bodyRef === 'string' ? refName(bodyRef) : null,
        statuses: Object.keys((operation.responses ?? {}) as object),
      });
    }
  }
  return found;
}

const refName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

/** A short, readable type of a schema: `string`, `"draft" | "published"`, `string[]`, `News`... */
export function shortType(schema: DocumentPart): string {
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const union = (schema.anyOf ?? schema.oneOf) as DocumentPart[] | undefined;
  if (Array.isArray(union)) return union.map(shortType).join(' | ');
  if (Array.isArray(schema.type)) return schema.type.map((type) => shortType({ ...schema, type })).join(' | ');
  if (schema.type === 'array') {
    const items = shortType((schema.items ?? {}) as DocumentPart);
    return items.includes(' | ') ? `(${items})[]` : `${items}[]`;
  }
  if (schema.type === 'object' && schema.properties) {
    return `{ ${Object.keys(schema.properties as object).join(', ')} }`;
  }
  if (schema.type === 'integer') return 'number';
  if (typeof schema.type === 'string') return schema.type;
  return 'any';
}

/** One field of a schema as the reference lists it. */
export interface SchemaField {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

/** The fields of an object schema of the document, by its name. */
export function fieldsOf(document: ApiDocument, name: string): SchemaField[] {
  const schema = document.components.schemas[name];
  const properties = (schema?.properties ?? {}) as Record<string, DocumentPart>;
  const required = new Set((schema?.required ?? []) as string[]);
  return Object.entries(properties).map(([field, property]) => ({
    name: field,
    type: shortType(property),
    required: required.has(field),
    description: String(property.description ?? property.title ?? ''),
  }));
}

/** A plausible value of a schema, for an example body. */
function exampleOf(schema: DocumentPart): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const union = (schema.anyOf ?? schema.oneOf) as DocumentPart[] | undefined;
  if (Array.isArray(union)) return exampleOf(union[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'array') return [];
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (schema.format === 'date') return '2026-01-31';
  return 'Example';
}

/** An example JSON body for a write schema: its required fields with plausible values. */
export function exampleBody(document: ApiDocument, name: string): Record<string, unknown> {
  const schema = document.components.schemas[name];
  const properties = (schema?.properties ?? {}) as Record<string, DocumentPart>;
  const required = (schema?.required ?? []) as string[];
  // An update needs nothing: show one field it may change (the first with a type; not an ignored one).
  const fields =
    required.length > 0
      ? required
      : Object.keys(properties)
          .filter((field) => ['type', 'anyOf', 'enum'].some((keyword) => keyword in properties[field]))
          .slice(0, 1);
  return Object.fromEntries(fields.map((field) => [field, exampleOf(properties[field] ?? {})]));
}

/** Quotes a word for a POSIX shell. */
const shellQuote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * A curl command line for an operation: `{id}` left as `ID` to fill in, an example body for writes,
 * and the token header when the server needs one (`$QUIRE_TOKEN`, never a real token).
 */
export function curlLine(
  document: ApiDocument,
  operation: ApiOperation,
  options: { apiBase: string; withToken: boolean },
): string {
  const url = `${options.apiBase}${operation.path.replace('{id}', 'ID')}${operation.method === 'GET' && operation.query.length > 0 ? '?limit=10' : ''}`;
  const parts = ['curl'];
  if (operation.method !== 'GET') parts.push('-X', operation.method);
  parts.push(shellQuote(url));
  if (options.withToken) parts.push('-H', '"Authorization: Bearer $QUIRE_TOKEN"');
  if (operation.body) {
    const body = exampleBody(document, operation.body);
    parts.push('-H', shellQuote('Content-Type: application/json'), '-d', shellQuote(JSON.stringify(body)));
  }
  return parts.join(' ');
}
