import type { ErrorBody, ErrorCode, LastChange, RowReference } from '../../../common/api-contract.js';
import type { FieldProblem } from '../../../common/field-problems.js';
import { currentLanguage, ensureNamespaces, i18n } from '../i18n/i18n-instance.js';
import { FALLBACK_LANGUAGE } from '../i18n/languages.js';
import { problemMessage } from '../i18n/problem-messages.js';

/** Error codes the server sends, plus the two failures only the client can see. */
export type ClientErrorCode = ErrorCode | 'network_error' | 'bad_response';

/** A failed API call, shaped like the server's error body so the UI handles every failure alike. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ClientErrorCode;
  /** The server's own sentences of the per-field problems (English). */
  private readonly sentFields: Readonly<Record<string, string>>;
  /** The same problems as data (a code and its parameters per field). */
  readonly problems: Readonly<Record<string, FieldProblem>>;
  /** What is wrong with the request as a whole, as data (`{ code: 'too_large', limit }`), if the server said. */
  readonly detail: FieldProblem | null;
  /** For a refused delete (409): the rows that still point at the row. */
  readonly references: readonly RowReference[];
  /** For a `stale_write` (412): what is stored now (null: nothing), its ETag and its last change. */
  stale: StaleWrite | null = null;

  constructor(
    status: number,
    code: ClientErrorCode,
    message: string,
    fields: Record<string, string> = {},
    references: RowReference[] = [],
    problems: Record<string, FieldProblem> = {},
    detail: FieldProblem | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.sentFields = fields;
    this.references = references;
    this.problems = problems;
    this.detail = detail;
  }

  /**
   * Per-field problems from a validation failure, keyed by the request's field names: each in the
   * editor's language by its code, or the server's sentence for a code this editor does not know.
   */
  get fields(): Readonly<Record<string, string>> {
    return this.fieldsIn();
  }

  /** The per-field problems as `fields` words them, a locale they name shown by `labelOf` (the site's label). */
  fieldsIn(labelOf?: (code: string) => string): Readonly<Record<string, string>> {
    const fields: Record<string, string> = { ...this.sentFields };
    for (const [name, problem] of Object.entries(this.problems)) {
      const message = problemMessage(problem, labelOf);
      if (message !== undefined) fields[name] = message;
    }
    return fields;
  }

  /** Builds the error from a response body, tolerating bodies that are not the API's shape. */
  static fromBody(status: number, body: unknown): ApiError {
    const error = (body as Partial<ErrorBody> | null)?.error;
    if (error && typeof error.message === 'string' && typeof error.code === 'string') {
      const references = Array.isArray(error.references) ? error.references : [];
      const made = new ApiError(
        status,
        error.code,
        error.message,
        error.fields ?? {},
        references,
        error.problems ?? {},
        error.detail ?? null,
      );
      if (error.code === 'stale_write') {
        made.stale = {
          current: error.current ?? null,
          etag: error.etag ?? null,
          lastChange: error.last_change ?? null,
        };
      }
      return made;
    }
    return new ApiError(status, 'bad_response', `The server answered ${status} without an explanation`);
  }
}

/**
 * The error once the catalog that words server failures (`problems`) is loaded: it is not in the
 * opening chunk, and the API client loads it with the first failure, before anyone reads it. A
 * catalog that cannot load leaves the server's own sentences.
 */
export async function worded(error: ApiError): Promise<ApiError> {
  await ensureNamespaces(['problems']).catch(() => undefined);
  return error;
}

/** What a `stale_write` says is stored now; `current` is the row (or type) as its read answers it. */
export interface StaleWrite {
  current: unknown;
  etag: string | null;
  lastChange: LastChange | null;
}

/**
 * Codes whose server sentence says no more than the code: other languages say them by code, while
 * English keeps the server's sentence, which may name the cause (a full disk, the name locked).
 */
const SAID_BY_CODE = new Set<ClientErrorCode>([
  'database_unavailable',
  'internal_error',
  'too_many_requests',
  'misdirected_request',
  'two_factor_enrolment_required',
]);

/** A validation failure in the editor's language, when the editor knows every problem's code. */
function invalidInput(error: ApiError): string | null {
  const entries = Object.entries(error.problems);
  if (entries.length === 0) return null;
  const parts: string[] = [];
  for (const [field, problem] of entries) {
    const message = problemMessage(problem);
    if (message === undefined) return null;
    parts.push(i18n.t('problems:errors.fieldProblem', { field, problem: message }));
  }
  return i18n.t('problems:errors.invalid_input', { problems: parts.join('; ') });
}

/** A sentence for a person, whatever went wrong (never a stack trace), in the editor's language where it can. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'network_error') return i18n.t('common:errors.network');
    if (error.code === 'bad_response') {
      return error.status >= 200 && error.status < 300
        ? i18n.t('problems:errors.no_data', { defaultValue: error.message })
        : i18n.t('problems:errors.bad_response', { status: error.status, defaultValue: error.message });
    }
    if (error.code === 'validation_failed') return invalidInput(error) ?? error.message;
    if (SAID_BY_CODE.has(error.code) && currentLanguage() !== FALLBACK_LANGUAGE) {
      return i18n.t(`problems:errors.${error.code}` as 'problems:errors.internal_error', {
        defaultValue: error.message,
      });
    }
    return error.message;
  }
  return i18n.t('common:errors.unexpected');
}

/** Whether the error means the row or type does not exist (any more). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'not_found';
}
