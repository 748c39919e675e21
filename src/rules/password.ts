import { string, type Struct } from 'superstruct';
import type { RuleCode } from './codes.ts';
import { codePointLength, everyFailing, firstFailing, type Check } from './refinements.ts';

/**
 * SPEC §5 password rules, one check each so the SPA can tick them live:
 * - minLength: at least 8 characters (counted in code points);
 * - uppercase / lowercase / number: at least one ASCII A–Z / a–z / 0–9;
 * - special: at least one of @ $ ! % * ? & ;
 * - noSpaces: no whitespace at all (space, tab, newline, no-break space ...);
 * - printable: every other character is printable ASCII, 0x21–0x7E. This is how we read "no emojis or
 *   non-printable characters": it keeps out emoji, control characters, zero-width characters and also
 *   accented letters, which some keyboards cannot type again on another device. Whitespace is left to
 *   noSpaces so that each bad character breaks exactly one rule.
 * Other printable ASCII symbols (# ^ ( ) ...) are allowed; only one of the listed specials is required.
 *
 * Not in SPEC but enforced by the struct: at most {@link PASSWORD_MAX_LENGTH} characters, so the hashing
 * cost of a request stays bounded ('password.maxLength'; not one of the live ticks).
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const PASSWORD_SPECIALS = '@$!%*?&';

export const PASSWORD_CHECKS = [
  'minLength',
  'uppercase',
  'lowercase',
  'number',
  'special',
  'noSpaces',
  'printable',
] as const;
export type PasswordCheck = (typeof PASSWORD_CHECKS)[number];

const CHECK_TESTS: Record<PasswordCheck, (pw: string) => boolean> = {
  minLength: (pw) => codePointLength(pw) >= PASSWORD_MIN_LENGTH,
  uppercase: (pw) => /[A-Z]/.test(pw),
  lowercase: (pw) => /[a-z]/.test(pw),
  number: (pw) => /[0-9]/.test(pw),
  special: (pw) => /[@$!%*?&]/.test(pw),
  noSpaces: (pw) => !/\s/u.test(pw),
  printable: (pw) => /^[\x21-\x7E\s]*$/u.test(pw),
};

/** Each rule on its own, for the live checklist. */
export function passwordChecks(pw: string): Record<PasswordCheck, boolean> {
  return {
    minLength: CHECK_TESTS.minLength(pw),
    uppercase: CHECK_TESTS.uppercase(pw),
    lowercase: CHECK_TESTS.lowercase(pw),
    number: CHECK_TESTS.number(pw),
    special: CHECK_TESTS.special(pw),
    noSpaces: CHECK_TESTS.noSpaces(pw),
    printable: CHECK_TESTS.printable(pw),
  };
}

export function isStrongPassword(pw: string): boolean {
  return Object.values(passwordChecks(pw)).every(Boolean) && codePointLength(pw) <= PASSWORD_MAX_LENGTH;
}

const RULES: readonly Check<string>[] = [
  ...PASSWORD_CHECKS.map((check): Check<string> => [`password.${check}` as RuleCode, CHECK_TESTS[check]]),
  ['password.maxLength', (pw) => codePointLength(pw) <= PASSWORD_MAX_LENGTH],
];

/** '' is 'required' only; otherwise every broken rule is reported. */
export const Password: Struct<string, null> = everyFailing(
  firstFailing(string(), [['required', (pw) => pw !== '']]),
  RULES.map(([code, test]) => [code, (pw: string) => pw === '' || test(pw)] as const),
);

/** Any non-empty password (the current one at login or password change: older rules may have applied). */
export const CurrentPassword: Struct<string, null> = firstFailing(string(), [['required', (pw) => pw !== '']]);

// Transport: SPEC §5 sends passwords base64-encoded. We encode the UTF-8 bytes, so the same text gives
// the same base64 in the browser and in Node (both have TextEncoder, TextDecoder, btoa and atob).

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function encodePassword(plain: string): string {
  const bytes = new TextEncoder().encode(plain);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The plain text, or null when `b64` is not canonical padded base64 (no whitespace, no missing padding,
 * no URL-safe alphabet) or its bytes are not valid UTF-8.
 */
export function decodePassword(b64: string): string | null {
  if (!STRICT_BASE64.test(b64)) return null;
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Base64 transport form of any non-empty password (login, current password). */
export const EncodedCurrentPassword: Struct<string, null> = firstFailing(string(), [
  ['required', (b64) => b64 !== ''],
  ['password.encoding', (b64) => decodePassword(b64) !== null],
  ['required', (b64) => decodePassword(b64) !== ''],
]);

/**
 * Base64 transport form of a new password: it must decode, then the decoded text must pass every
 * {@link Password} rule (each broken rule reported, as for the plain form).
 */
export const EncodedPassword: Struct<string, null> = everyFailing(
  firstFailing(string(), [
    ['required', (b64) => b64 !== ''],
    ['password.encoding', (b64) => decodePassword(b64) !== null],
    ['required', (b64) => decodePassword(b64) !== ''],
  ]),
  RULES.map(([code, test]) => {
    const onDecoded = (b64: string): boolean => {
      const plain = decodePassword(b64);
      return plain === null || plain === '' || test(plain);
    };
    return [code, onDecoded] as const;
  }),
);
