import type { ErrorCode } from '../../common/api-contract.js';

/** Errors any request under /api may meet (guards, the database, the server itself). */
export const ALWAYS_ERRORS: readonly ErrorCode[] = [
  'unauthorized',
  'forbidden',
  'misdirected_request',
  'internal_error',
  'database_unavailable',
  'two_factor_enrolment_required',
];

/** Errors of a read of one thing: a bad query or an unknown one, and ALWAYS_ERRORS. */
export const READ_ERRORS: readonly ErrorCode[] = ['bad_request', 'not_found', ...ALWAYS_ERRORS];
