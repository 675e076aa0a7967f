import type { ErrorBody, ErrorCode, LastChange, RowReference } from '../../common/api-contract.js';
import { describeProblem, type FieldProblem, type FieldProblems, hasProblems } from '../../common/field-problems.js';

const STATUS_OF: Record<ErrorCode, number> = {
  bad_request: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  misdirected_request: 421,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal_error: 500,
  // The database went away (PostgreSQL stopped, the network dropped): a retry later may succeed.
  database_unavailable: 503,
  // Too many failed sign-ins from one address: refused for a while (Retry-After says how long).
  too_many_requests: 429,
  // `--require-2fa` names the account's role and it has no second factor: it may only enrol until it does.
  two_factor_enrolment_required: 403,
  // A change-feed cursor this database never gave.
  bad_cursor: 400,
  // A change-feed cursor older than what is kept: the client reads everything again.
  cursor_expired: 410,
  // An `If-Match` names a version that is no longer stored: nothing was written.
  stale_write: 412,
  // A single type's one row is never created by POST nor deleted; nor does a collection of many rows become single.
  single_row_type: 409,
};

/** The one error type of the server: thrown anywhere, turned into JSON by the error middleware. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  /** What is wrong with each field, as data. */
  readonly problems?: FieldProblems;
  /** What is wrong with the request as a whole, as data (a limit it exceeds). */
  readonly detail?: FieldProblem;
  /** Rows that block a delete (see `RowReference`). */
  references?: RowReference[];
  /** Rows that block a delete in content types the caller may not read: counted, never named. */
  otherReferences?: number;
  /** What a `stale_write` found stored now, its ETag and its last change. */
  stale?: { current: unknown; etag: string | null; lastChange: LastChange | null };

  constructor(code: ErrorCode, message: string, problems?: FieldProblems, detail?: FieldProblem) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS_OF[code];
    if (problems && hasProblems(problems)) this.problems = problems;
    if (detail) this.detail = detail;
  }

  /** Each field's problem as a sentence (`{ title: 'is required' }`). */
  get fields(): Record<string, string> | undefined {
    if (!this.problems) return undefined;
    return Object.fromEntries(Object.entries(this.problems).map(([name, problem]) => [name, describeProblem(problem)]));
  }

  /** The response body for this error. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { status: this.status, code: this.code, message: this.message };
    if (this.problems) {
      error.fields = this.fields;
      error.problems = { ...this.problems };
    }
    if (this.detail) error.detail = this.detail;
    if (this.references) error.references = this.references;
    if (this.otherReferences) error.other_references = this.otherReferences;
    if (this.stale) {
      error.current = this.stale.current;
      error.etag = this.stale.etag;
      error.last_change = this.stale.lastChange;
    }
    return { error };
  }
}

/** A validation failure naming each offending field. */
export function validationError(problems: FieldProblems): AppError {
  const summary = Object.entries(problems)
    .map(([name, problem]) => `${name} ${describeProblem(problem)}`)
    .join('; ');
  return new AppError('validation_failed', `Invalid input: ${summary}`, problems);
}
