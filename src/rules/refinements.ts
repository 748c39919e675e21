import { nullable, optional, refine, string, type Context, type Struct } from 'superstruct';
import type { RuleCode } from './codes.ts';

/** A rule: the code reported when `test` returns false. */
export type Check<T> = readonly [code: RuleCode, test: (value: T) => boolean];

/**
 * Adds the checks as refinements named by their codes, so that at most one of them fails: a check's test
 * only runs when every earlier check passed. A field therefore reports its most basic problem first
 * ('required' before 'email', 'amount.format' before 'amount.max').
 */
export function firstFailing<T, S>(base: Struct<T, S>, checks: readonly Check<T>[]): Struct<T, S> {
  let struct = base;
  checks.forEach(([code, test], index) => {
    const earlier = checks.slice(0, index);
    struct = refine(struct, code, (value) => !earlier.every(([, t]) => t(value)) || test(value));
  });
  return struct;
}

/** Adds the checks as independent refinements: every failing check is reported (password rules). */
export function everyFailing<T, S>(base: Struct<T, S>, checks: readonly Check<T>[]): Struct<T, S> {
  return checks.reduce<Struct<T, S>>((struct, [code, test]) => refine(struct, code, test), base);
}

export const isBlank = (value: string): boolean => value.trim() === '';

/** Length in code points, so an emoji or an accented letter counts as one character. */
export const codePointLength = (value: string): number => [...value].length;

/** A required string: blank (empty or whitespace only) is 'required', then the checks in order. */
export function requiredText(checks: readonly Check<string>[]): Struct<string, null> {
  return firstFailing(string(), [['required', (v) => !isBlank(v)], ...checks]);
}

/**
 * An optional string: absent, null and '' all mean "not given" (forms produce '', stored rows produce
 * null); anything else must pass the checks. Consumers should treat '' like absent.
 */
export function optionalText(checks: readonly Check<string>[]): Struct<string | null | undefined, null> {
  const skipEmpty = checks.map(([code, test]) => [code, (v: string) => v === '' || test(v)] as const);
  return optional(nullable(firstFailing(string(), skipEmpty)));
}

/**
 * Adds one refinement per code, driven by a classifier that names the single problem of a value (or
 * null). Exactly one refinement fails for a bad value, and it is the classifier's answer.
 */
export function classified<T, S>(
  base: Struct<T, S>,
  codes: readonly RuleCode[],
  classify: (value: T) => RuleCode | null,
): Struct<T, S> {
  return codes.reduce<Struct<T, S>>(
    (struct, code) => refine(struct, code, (value) => classify(value) !== code),
    base,
  );
}

/** The field of an object value when it is a string; anything else reads as undefined. */
export function stringField(value: unknown, key: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const field: unknown = (value as Record<string, unknown>)[key];
  return typeof field === 'string' ? field : undefined;
}

/** A string sibling of the value being refined (same parent object), or undefined. */
export function siblingString(ctx: Context, key: string): string | undefined {
  const parent: unknown = ctx.branch.length >= 2 ? ctx.branch[ctx.branch.length - 2] : undefined;
  return stringField(parent, key);
}

/**
 * Cross-field rules live on the field they are reported on and read the sibling through the validation
 * branch, rather than on the object: superstruct skips object refinements when a field has the wrong
 * type, and we want every failure reported in one pass. Used alone (a per-field struct, no parent) the
 * rule passes.
 */
export function relatesTo<S>(
  base: Struct<string, S>,
  code: RuleCode,
  siblingKey: string,
  holds: (value: string, sibling: string) => boolean,
): Struct<string, S> {
  return refine(base, code, (value, ctx) => {
    const sibling = siblingString(ctx, siblingKey);
    return value === '' || sibling === undefined || holds(value, sibling);
  });
}

/** A required confirmation that must equal its sibling `passwordKey` ('confirmPassword.mismatch'). */
export function confirmationOf(passwordKey: string): Struct<string, null> {
  return relatesTo(requiredText([]), 'confirmPassword.mismatch', passwordKey, (value, pw) => value === pw);
}
