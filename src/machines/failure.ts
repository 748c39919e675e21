import type { components } from '../api/schema.d.ts';
import type { ErrorCode } from './effects.ts';

export type ServerFieldError = components['schemas']['FieldError'];

/**
 * Why an API call failed, as the machines store it: the HTTP status (0 when no answer arrived: network
 * failure, timeout, abort), the error envelope's first code (null when there is none) and its field
 * errors. Actors throw it; machines keep the code, never a message.
 */
export class ApiFailure extends Error {
  readonly status: number;
  readonly code: ErrorCode | null;
  readonly fields: readonly ServerFieldError[];

  constructor(status: number, code: ErrorCode | null, fields: readonly ServerFieldError[] = []) {
    super(code ?? (status === 0 ? 'no answer' : `HTTP ${status}`));
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
    this.fields = fields;
  }
}

/** Any error an actor rejected with, as an ApiFailure (an unexpected exception reads as "no answer"). */
export function toFailure(error: unknown): ApiFailure {
  return error instanceof ApiFailure ? error : new ApiFailure(0, null);
}

/** SPEC §6: any 401, or the code ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED, ends the session. */
export function isSessionExpiry(error: unknown): boolean {
  const failure = toFailure(error);
  return failure.status === 401 || failure.code === 'ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED';
}

/** SPEC §6: an account inactivated by an admin. */
export function isUserInactive(error: unknown): boolean {
  return toFailure(error).code === 'USER_INACTIVE';
}

/**
 * Adds the server's per-field codes to the form's own, for the fields the form knows (a code for '' or
 * an unknown member stays with the flow's error code).
 */
export function mergeFieldCodes<TField extends string>(
  current: Partial<Record<TField, readonly string[]>>,
  serverFields: readonly ServerFieldError[],
  known: readonly TField[],
): Partial<Record<TField, readonly string[]>> {
  const merged: Partial<Record<TField, readonly string[]>> = { ...current };
  for (const { field, code } of serverFields) {
    if (!(known as readonly string[]).includes(field)) continue;
    const key = field as TField;
    const codes = merged[key] ?? [];
    if (!codes.includes(code)) merged[key] = [...codes, code];
  }
  return merged;
}
