/**
 * Stable machine codes for validation failures. The SPA translates them (src/i18n) and the server returns
 * them in the error envelope's `fields`, so a code, once shipped, is never renamed or reused.
 *
 * Every refinement in src/rules is named with one of these codes; a struct failure with no refinement
 * maps to 'required' (value absent), 'type' (value of the wrong JSON type) or 'unknownField'.
 */
export const RULE_CODES = [
  // Shape
  'required', // absent, null, or an empty string where a value is required
  'type', // present but of the wrong JSON type (a number where a string is expected, ...)
  'unknownField', // a key the struct does not know (only when unknown keys are rejected)

  // Account
  'email', // not an address of the form local@domain.tld, or longer than 254
  'username', // not ASCII letters and digits only
  'username.length', // not 3–20 characters
  'loginId', // neither a valid email nor a valid username
  'referralCode', // not 4–32 ASCII letters and digits

  // Password (one code per rule, so the SPA can tick them one by one)
  'password.minLength',
  'password.maxLength',
  'password.uppercase',
  'password.lowercase',
  'password.number',
  'password.special',
  'password.noSpaces',
  'password.printable',
  'password.encoding', // transport form is not base64 of UTF-8 text
  'confirmPassword.mismatch',
  'newPassword.sameAsOld',

  // Person
  'name', // first/middle/last name: letters, with single spaces, apostrophes or hyphens between them
  'name.length', // more than 50 characters
  'date', // not a real calendar date written YYYY-MM-DD, or before 1900-01-01
  'age', // younger than 18 on the day of validation (a future date included)
  'gender', // not one of male, female, other

  // Contact and address
  'phone', // not digits only
  'phone.length', // not 6–15 digits
  'phoneCode', // not a country calling code such as "351", "+351", "+1-684"
  'address', // contains control characters
  'address.length', // not 3–100 characters once trimmed
  'addressLabel', // not 1–50 characters, or contains control characters
  'city', // letters, with single spaces, apostrophes or hyphens between them
  'city.length', // more than 50 characters
  'state', // state code: not 1–10 letters/digits (hyphen-separated groups allowed)
  'country', // country code: not ISO 3166-1 alpha-2 (two upper-case letters)
  'zip', // not 5 digits, 9 digits, or 5+4 written 12345-6789

  // Money
  'amount.format', // not a plain decimal: sign "+", exponent, whitespace, ".5", "5.", leading zero ...
  'amount.decimals', // more than 8 decimals
  'amount.positive', // zero or negative
  'amount.max', // above the ceiling (10000 for transfers; 22 integer digits for limits)
  'limits.positive', // a limit of zero or less
  'limits.order', // not daily < weekly < monthly among the periods that are set

  // Files
  'file.type', // extension, declared media type or content not an allowed kind
  'file.size', // 5 MiB or more
  'file.empty', // zero bytes
] as const;

export type RuleCode = (typeof RULE_CODES)[number];

const CODE_SET: ReadonlySet<string> = new Set(RULE_CODES);

export function isRuleCode(value: unknown): value is RuleCode {
  return typeof value === 'string' && CODE_SET.has(value);
}
