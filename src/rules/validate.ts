import type { Failure, Struct } from 'superstruct';
import { isRuleCode, type RuleCode } from './codes.ts';

export { RULE_CODES, isRuleCode, type RuleCode } from './codes.ts';

/** One failed rule on one field. `field` is the dot path ('email', 'deposit.weekly'); '' is the value itself. */
export interface FieldError {
  field: string;
  code: RuleCode;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; fields: FieldError[] };

export interface ValidateOptions {
  /**
   * 'strip' (default): keys an object struct does not know are dropped from the returned value (forms may
   * carry UI state). 'reject': each one is a FieldError with code 'unknownField'.
   */
  unknownKeys?: 'strip' | 'reject';
}

/** The one code for one superstruct failure. Our refinements are named by their codes. */
export function failureCode(failure: Failure): RuleCode {
  if (failure.refinement !== undefined) return isRuleCode(failure.refinement) ? failure.refinement : 'type';
  if (failure.type === 'never') return 'unknownField';
  if (failure.value === undefined || failure.value === null) return 'required';
  return 'type';
}

/**
 * Validates `value` and collects every failure of every field (not only the first), one FieldError per
 * distinct (field, code), in the order the struct's fields are declared. A field may carry several codes
 * (a password breaking several rules); the other fields report their most basic problem only.
 */
export function validate<T, S>(
  struct: Struct<T, S>,
  value: unknown,
  options: ValidateOptions = {},
): ValidationResult<T> {
  const strip = (options.unknownKeys ?? 'strip') === 'strip';
  const [error, result] = struct.validate(value, strip ? { coerce: true, mask: true } : {});
  if (error === undefined) return { ok: true, value: result };
  const seen = new Set<string>();
  const fields: FieldError[] = [];
  // A value of the wrong type reports 'type' only, not the failures superstruct still finds inside it
  // (an array given for an object yields its indexes as unknown keys and every field as missing).
  const wrongTypePaths: string[][] = [];
  for (const failure of error.failures()) {
    const path = failure.path.map(String);
    if (wrongTypePaths.some((prefix) => prefix.length < path.length && prefix.every((k, i) => k === path[i]))) {
      continue;
    }
    const code = failureCode(failure);
    if (failure.refinement === undefined && (code === 'type' || code === 'required')) wrongTypePaths.push(path);
    const field = path.join('.');
    const key = `${field}\u0000${code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fields.push({ field, code });
  }
  return { ok: false, fields };
}

/** The codes of each failing field, for showing messages next to inputs. */
export function codesByField(fields: readonly FieldError[]): Partial<Record<string, RuleCode[]>> {
  const byField: Partial<Record<string, RuleCode[]>> = {};
  for (const { field, code } of fields) (byField[field] ??= []).push(code);
  return byField;
}

/**
 * Codes for one value against one field struct (e.g. `signupFields.email`), for feedback as the player
 * types; [] when valid.
 */
export function fieldCodes<T, S>(struct: Struct<T, S>, value: unknown): RuleCode[] {
  const result = validate(struct, value);
  return result.ok ? [] : result.fields.map((error) => error.code);
}
