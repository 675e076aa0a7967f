import type { ErrorBody, ErrorCode, RowReference } from '../../common/api-contract.js';

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
};

/** The one error type of the server: thrown anywhere, turned into JSON by the error middleware. */
export class AppError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly fields?: Record<string, string>;
  /** Rows that block a delete (see `RowReference`). */
  references?: RowReference[];

  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS_OF[code];
    if (fields && Object.keys(fields).length > 0) this.fields = fields;
  }

  /** The response body for this error. */
  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { status: this.status, code: this.code, message: this.message };
    if (this.fields) error.fields = this.fields;
    if (this.references) error.references = this.references;
    return { error };
  }
}

/** A validation failure naming each offending field. */
export function validationError(fields: Record<string, string>): AppError {
  const names = Object.keys(fields);
  const summary = names.map((name) => `${name} ${fields[name]}`).join('; ');
  return new AppError('validation_failed', `Invalid input: ${summary}`, fields);
}
