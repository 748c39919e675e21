/*
 * Reading the error envelope `{ data, errors: [{ name, description: CODE, fields? }] }` without the error
 * catalogue (src/api/errors.ts): the API client looks for one code on every answer, and stays small.
 */

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The first error of an envelope, when the body is one. */
export function firstErrorOf(body: unknown): Record<string, unknown> | null {
  if (!isRecord(body) || !Array.isArray(body.errors)) return null;
  const first: unknown = body.errors[0];
  return isRecord(first) ? first : null;
}
