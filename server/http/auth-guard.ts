import { DomainError } from '../domain/errors.ts';
import type { Auth } from './types.ts';

/** The player of an operation that requires a bearer token; the security handler has already checked it. */
export function player(input: { auth: Auth | null }): Auth {
  if (!input.auth) throw new DomainError('ACCESS_TOKEN_EXPIRED_OR_NOT_PASSED');
  return input.auth;
}
