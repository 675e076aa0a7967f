import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../openapi/openapi-document.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule.default;

/** Problems the OpenAPI 3.1 schema finds in a document (none: an empty list). */
export async function openApiProblems(document: OpenApiDocument): Promise<unknown[]> {
  const validator = new Validator();
  // The validator keeps the object it is given: hand it a copy.
  const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
  if (result.valid) return [];
  return Array.isArray(result.errors) ? result.errors : [result.errors];
}

/** The document's path template a concrete API path matches (`/cms/news/123` -> `/cms/news/{id}`). */
function templateOf(document: OpenApiDocument, path: string): string | null {
  const bare = path.split('?')[0];
  if (document.paths[bare]) return bare;
  for (const template of Object.keys(document.paths)) {
    const pattern = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(bare)) return template;
  }
  return null;
}

/**
 * Checks answers the tests see against what a document promises: each response's status must be
 * documented for its operation, and its JSON body must match that status's schema.
 */
export class ResponseChecker {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: true, discriminator: true });
  /** How many answers were checked, so a test can show it checked something. */
  checked = 0;

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    // The schemas sit where the document's $refs point: under components (not a JSON Schema keyword).
    this.ajv.addKeyword('components');
    this.ajv.addSchema({ $id: 'quire:openapi', components: document.components } as object);
  }

  /** The schema a documented answer to `method path` with `status` has, or why there is none. */
  private schemaFor(method: string, path: string, status: number): { ref: string } | { missing: string } {
    const template = templateOf(this.document, path);
    if (!template) return { missing: `${path} is not in the document` };
    const operation = (this.document.paths[template] as Record<string, any>)[method.toLowerCase()];
    if (!operation) return { missing: `${method} ${template} is not in the document` };
    let response = operation.responses?.[String(status)];
    if (!response) return { missing: `${method} ${template} does not document ${status}` };
    if (typeof response.$ref === 'string') {
      response = (this.document.components.responses as Record<string, any>)[response.$ref.split('/').pop()];
    }
    const schema = response?.content?.['application/json']?.schema;
    if (schema?.$ref) return { ref: `quire:openapi${schema.$ref}` };
    // An answer of one of several shapes (a row read in one locale or in all): each a component.
    const union = (schema?.oneOf ?? schema?.anyOf) as { $ref?: unknown }[] | undefined;
    if (Array.isArray(union) && union.length > 0 && union.every((member) => typeof member.$ref === 'string')) {
      const key = schema.oneOf ? 'oneOf' : 'anyOf';
      const ref = `quire:answer/${encodeURIComponent(`${method.toUpperCase()} ${template} ${status}`)}`;
      if (!this.ajv.getSchema(ref)) {
        this.ajv.addSchema({ $id: ref, [key]: union.map((member) => ({ $ref: `quire:openapi${member.$ref}` })) });
      }
      return { ref };
    }
    return { missing: `${method} ${template} ${status} has no JSON schema` };
  }

  /** Problems of one answer (an empty list when it matches the document). */
  problems(method: string, path: string, status: number, body: unknown): string[] {
    const found = this.schemaFor(method, path, status);
    if ('missing' in found) return [found.missing];
    const validate = this.ajv.getSchema(found.ref);
    if (!validate) return [`no schema ${found.ref}`];
    this.checked++;
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${method} ${path} ${status}: ${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`,
    );
  }

  /** Whether a value matches a named component schema (`News`), with the problems if not. */
  matches(name: string, value: unknown): string[] {
    const validate = this.ajv.getSchema(`quire:openapi#/components/schemas/${name}`);
    if (!validate) return [`no schema ${name}`];
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  }
}
