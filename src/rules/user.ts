import { object, type Infer } from 'superstruct';
import { EncodedPassword, Password } from './password.ts';
import {
  codePointLength,
  confirmationOf,
  optionalText,
  requiredText,
  type Check,
} from './refinements.ts';

/*
 * SPEC §5 user rules, and how we read the ambiguous ones:
 * - Email: dot-atom local part (max 64) @ a domain of at least two labels; 254 characters at most.
 * - Username: "alphanumeric" = ASCII letters and digits only, 3–20 characters.
 * - "Phone numeric; phone code required, minimum 6 characters": the phone NUMBER is digits only, at
 *   least 6 and at most 15 (the E.164 ceiling); the phone CODE is required and is a country calling code,
 *   "351", "+351" or a dashed NANP/Crown-dependency form such as "+1-684" or "+44-1481".
 * - "Names, city, state: letters only": any Unicode letter (with combining marks), and single spaces,
 *   apostrophes (' or ’) or hyphens between letters, so "Ana-Maria", "O'Neil" and "São Paulo" pass;
 *   1–50 characters. The state is sent as a code (stateCode), so it gets a code rule instead: 1–10
 *   ASCII letters/digits, hyphen-separated groups allowed ("CA", "13", "SH-AC").
 * - Address: 3–100 characters after trimming, no control characters (single line).
 * - Zip: "5 or 9 digits" = 12345, 123456789, and the usual written form of nine digits 12345-6789.
 * - Age above 18 = at least 18 years old on the day of validation (the 18th birthday counts). The day is
 *   the UTC calendar date of `now`, so the SPA and the server agree whatever their time zones. Someone
 *   born on 29 February reaches an age on 1 March in common years. Dates before 1900 are refused as
 *   'date' (not a plausible birth date).
 * - Country: ISO 3166-1 alpha-2, upper case. We check the form, not membership of the current list.
 * - Referral code: optional, 4–32 ASCII letters and digits.
 * Optional text fields (middleName, referralCode, address label) accept absent, null and ''.
 */

export const NAME_MAX_LENGTH = 50;
export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 20;
export const EMAIL_MAX_LENGTH = 254;
export const PHONE_MIN_DIGITS = 6;
export const PHONE_MAX_DIGITS = 15;
export const ADDRESS_MIN_LENGTH = 3;
export const ADDRESS_MAX_LENGTH = 100;
export const ADDRESS_LABEL_MAX_LENGTH = 50;
export const STATE_CODE_MAX_LENGTH = 10;
export const MINIMUM_AGE = 18;
export const EARLIEST_BIRTH_YEAR = 1900;
export const GENDERS = ['male', 'female', 'other'] as const;
export type Gender = (typeof GENDERS)[number];

const EMAIL_REGEX =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const USERNAME_REGEX = /^[A-Za-z0-9]+$/;
const NAME_REGEX = /^\p{L}[\p{L}\p{M}]*(?:[ '’-]\p{L}[\p{L}\p{M}]*)*$/u;
const PHONE_REGEX = /^[0-9]+$/;
const PHONE_CODE_REGEX = /^\+?[1-9][0-9]{0,3}(?:-[0-9]{1,4})?$/;
const STATE_CODE_REGEX = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;
const COUNTRY_CODE_REGEX = /^[A-Z]{2}$/;
const ZIP_REGEX = /^(?:[0-9]{5}|[0-9]{9}|[0-9]{5}-[0-9]{4})$/;
const REFERRAL_CODE_REGEX = /^[A-Za-z0-9]{4,32}$/;
const CONTROL_CHAR_REGEX = /\p{Cc}/u;
const ISO_DATE_REGEX = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH || !EMAIL_REGEX.test(value)) return false;
  const local = value.slice(0, value.lastIndexOf('@'));
  return local.length <= 64;
}

export function isUsername(value: string): boolean {
  return (
    USERNAME_REGEX.test(value) && value.length >= USERNAME_MIN_LENGTH && value.length <= USERNAME_MAX_LENGTH
  );
}

// Dates of birth

export interface CalendarDate {
  year: number;
  month: number; // 1–12
  day: number; // 1–31
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  return [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] ?? 0;
}

/** A real calendar date written YYYY-MM-DD, or null ("2001-02-30", "2001-2-3", "2001-13-01" are null). */
export function parseIsoDate(value: string): CalendarDate | null {
  const match = ISO_DATE_REGEX.exec(value);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

/** The UTC calendar date of an instant. */
export function utcCalendarDate(instant: Date): CalendarDate {
  return { year: instant.getUTCFullYear(), month: instant.getUTCMonth() + 1, day: instant.getUTCDate() };
}

/**
 * Completed years between a YYYY-MM-DD birth date and the UTC date of `today`; negative when the birth
 * date is in the future; null when `dateOfBirth` is not a real date.
 */
export function ageOn(dateOfBirth: string, today: Date = new Date()): number | null {
  const birth = parseIsoDate(dateOfBirth);
  if (birth === null) return null;
  const now = utcCalendarDate(today);
  const hadBirthdayThisYear = now.month > birth.month || (now.month === birth.month && now.day >= birth.day);
  return now.year - birth.year - (hadBirthdayThisYear ? 0 : 1);
}

/** At least {@link MINIMUM_AGE} on the UTC date of `today`. False for a date that is not real. */
export function isAdult(dateOfBirth: string, today: Date = new Date()): boolean {
  const age = ageOn(dateOfBirth, today);
  return age !== null && age >= MINIMUM_AGE;
}

// Field structs

const nameChecks = (format: 'name' | 'city', length: 'name.length' | 'city.length'): Check<string>[] => [
  [format, (v) => NAME_REGEX.test(v)],
  [length, (v) => codePointLength(v) <= NAME_MAX_LENGTH],
];

export interface UserRuleOptions {
  /** Clock for the age rule, read at validation time. Default: the real clock. */
  now?: () => Date;
}

/** One struct per user field, for validating a single field while the player types. */
export function createUserFields(options: UserRuleOptions = {}) {
  const now = options.now ?? (() => new Date());
  return {
    firstName: requiredText(nameChecks('name', 'name.length')),
    middleName: optionalText(nameChecks('name', 'name.length')),
    lastName: requiredText(nameChecks('name', 'name.length')),
    email: requiredText([['email', isEmail]]),
    username: requiredText([
      ['username', (v) => USERNAME_REGEX.test(v)],
      ['username.length', (v) => v.length >= USERNAME_MIN_LENGTH && v.length <= USERNAME_MAX_LENGTH],
    ]),
    phoneCode: requiredText([['phoneCode', (v) => PHONE_CODE_REGEX.test(v)]]),
    phone: requiredText([
      ['phone', (v) => PHONE_REGEX.test(v)],
      ['phone.length', (v) => v.length >= PHONE_MIN_DIGITS && v.length <= PHONE_MAX_DIGITS],
    ]),
    dateOfBirth: requiredText([
      ['date', (v) => (parseIsoDate(v)?.year ?? 0) >= EARLIEST_BIRTH_YEAR],
      ['age', (v) => isAdult(v, now())],
    ]),
    gender: requiredText([['gender', (v) => (GENDERS as readonly string[]).includes(v)]]),
    address: requiredText([
      ['address', (v) => !CONTROL_CHAR_REGEX.test(v)],
      [
        'address.length',
        (v) => {
          const length = codePointLength(v.trim());
          return length >= ADDRESS_MIN_LENGTH && length <= ADDRESS_MAX_LENGTH;
        },
      ],
    ]),
    city: requiredText(nameChecks('city', 'city.length')),
    stateCode: requiredText([
      ['state', (v) => STATE_CODE_REGEX.test(v) && v.length <= STATE_CODE_MAX_LENGTH],
    ]),
    countryCode: requiredText([['country', (v) => COUNTRY_CODE_REGEX.test(v)]]),
    zipCode: requiredText([['zip', (v) => ZIP_REGEX.test(v)]]),
    referralCode: optionalText([['referralCode', (v) => REFERRAL_CODE_REGEX.test(v)]]),
    addressLabel: optionalText([
      [
        'addressLabel',
        (v) => !CONTROL_CHAR_REGEX.test(v) && !/^\s+$/.test(v) && codePointLength(v) <= ADDRESS_LABEL_MAX_LENGTH,
      ],
    ]),
  };
}

export const userFields = createUserFields();

// Forms and payloads

export type PasswordTransport = 'plain' | 'base64';

export interface SignupOptions extends UserRuleOptions {
  /**
   * 'plain' for the SPA form, 'base64' for the wire payload the server receives. Default 'plain'.
   * confirmPassword is compared in the same form (base64 is deterministic and one-to-one).
   */
  passwords?: PasswordTransport;
}

export function createSignupFields(options: SignupOptions = {}) {
  const fields = createUserFields(options);
  const password = options.passwords === 'base64' ? EncodedPassword : Password;
  return {
    firstName: fields.firstName,
    middleName: fields.middleName,
    lastName: fields.lastName,
    email: fields.email,
    username: fields.username,
    phoneCode: fields.phoneCode,
    phone: fields.phone,
    dateOfBirth: fields.dateOfBirth,
    gender: fields.gender,
    address: fields.address,
    city: fields.city,
    stateCode: fields.stateCode,
    countryCode: fields.countryCode,
    zipCode: fields.zipCode,
    password,
    // Equal to `password` when validated as part of the form; alone, only 'required'.
    confirmPassword: confirmationOf('password'),
    referralCode: fields.referralCode,
  };
}

export function createSignupInput(options: SignupOptions = {}) {
  return object(createSignupFields(options));
}

export const signupFields = createSignupFields();
/** The SPA's signup form (plain passwords). */
export const SignupInput = createSignupInput();
export type SignupInput = Infer<typeof SignupInput>;
/** The signup payload on the wire: password and confirmPassword base64-encoded. */
export const EncodedSignupInput = createSignupInput({ passwords: 'base64' });

export function createProfileFields(options: UserRuleOptions = {}) {
  const fields = createUserFields(options);
  return {
    firstName: fields.firstName,
    middleName: fields.middleName,
    lastName: fields.lastName,
    username: fields.username,
    phoneCode: fields.phoneCode,
    phone: fields.phone,
    dateOfBirth: fields.dateOfBirth,
    gender: fields.gender,
    address: fields.address,
    city: fields.city,
    stateCode: fields.stateCode,
    countryCode: fields.countryCode,
    zipCode: fields.zipCode,
  };
}

/** Profile update: the user fields without email (immutable here) and password (own flow). */
export function createProfileUpdateInput(options: UserRuleOptions = {}) {
  return object(createProfileFields(options));
}

export const profileFields = createProfileFields();
export const ProfileUpdateInput = createProfileUpdateInput();
export type ProfileUpdateInput = Infer<typeof ProfileUpdateInput>;

export const addressFields = {
  address: userFields.address,
  city: userFields.city,
  stateCode: userFields.stateCode,
  countryCode: userFields.countryCode,
  zipCode: userFields.zipCode,
  label: userFields.addressLabel,
};

/** Add or update an address (the server adds its own id field for updates with superstruct `assign`). */
export const AddressInput = object(addressFields);
export type AddressInput = Infer<typeof AddressInput>;
