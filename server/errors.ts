import type { components } from '../src/api/schema.d.ts';

export type ErrorCode = components['schemas']['ErrorCode'];
export type FieldIssue = { field: string; code: string };

const namesByStatus: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  409: 'Conflict',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  422: 'UnprocessableEntity',
  429: 'TooManyRequests',
  500: 'InternalServerError',
  502: 'BadGateway',
};

export function errorName(status: number): string {
  return namesByStatus[status] ?? 'Error';
}

/** A failure the API reports in the envelope: an HTTP status, a code from openapi.yaml and optional field issues. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    readonly fields?: FieldIssue[],
    readonly headers?: Record<string, string>,
  ) {
    super(code);
    this.name = errorName(statusCode);
  }
}

export const badRequest = (fields?: FieldIssue[]) => new ApiError(400, 'PLEASE_CHECK_REQUEST_DATA', fields);
export const unauthorized = () => new ApiError(401, 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
export const notFound = (code: ErrorCode = 'NOT_FOUND') => new ApiError(404, code);
