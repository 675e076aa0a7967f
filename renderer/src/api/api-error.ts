import type { ErrorBody, ErrorCode, RowReference } from '../../../common/api-contract.js';
import type { FieldProblem } from '../../../common/field-problems.js';
import { i18n } from '../i18n/i18n-instance.js';

/** Error codes the server sends, plus the two failures only the client can see. */
export type ClientErrorCode = ErrorCode | 'network_error' | 'bad_response';

/** A failed API call, shaped like the server's error body so the UI handles every failure alike. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ClientErrorCode;
  /** Per-field problems from a validation failure, keyed by the request's field names. */
  readonly fields: Readonly<Record<string, string>>;
  /** The same problems as data (a code and its parameters per field). */
  readonly problems: Readonly<Record<string, FieldProblem>>;
  /** What is wrong with the request as a whole, as data (`{ code: 'too_large', limit }`), if the server said. */
  readonly detail: FieldProblem | null;
  /** For a refused delete (409): the rows that still point at the row. */
  readonly references: readonly RowReference[];

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
    this.fields = fields;
    this.references = references;
    this.problems = problems;
    this.detail = detail;
  }

  /** Builds the error from a response body, tolerating bodies that are not the API's shape. */
  static fromBody(status: number, body: unknown): ApiError {
    const error = (body as Partial<ErrorBody> | null)?.error;
    if (error && typeof error.message === 'string' && typeof error.code === 'string') {
      const references = Array.isArray(error.references) ? error.references : [];
      return new ApiError(
        status,
        error.code,
        error.message,
        error.fields ?? {},
        references,
        error.problems ?? {},
        error.detail ?? null,
      );
    }
    return new ApiError(status, 'bad_response', `The server answered ${status} without an explanation`);
  }
}

/** A sentence for a person, whatever went wrong (never a stack trace). */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === 'network_error') return i18n.t('common:errors.network');
    return error.message;
  }
  return i18n.t('common:errors.unexpected');
}

/** Whether the error means the row or type does not exist (any more). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'not_found';
}
