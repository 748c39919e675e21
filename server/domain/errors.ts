import type { components } from '../../src/api/schema.d.ts';

export type ErrorCode = components['schemas']['ErrorCode'];
export type FieldIssue = { field: string; code: string };

/**
 * A refusal, by its code from openapi.yaml (ErrorCode) and the fields it is about. The domain says what
 * went wrong; which HTTP status answers it is the API's business, written once in server/http/status.ts.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly fields?: FieldIssue[],
    /** For RATE_LIMITED: when the caller may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
    this.name = 'DomainError';
  }
}

export const badRequest = (fields?: FieldIssue[]) => new DomainError('PLEASE_CHECK_REQUEST_DATA', fields);
export const unauthorized = () => new DomainError('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
export const notFound = (code: ErrorCode = 'NOT_FOUND') => new DomainError(code);
