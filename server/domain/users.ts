import type { Queryable } from '../db/db.ts';
import { DomainError } from './errors.ts';
import { maybeOne, one } from '../db/db.ts';

export interface UserRow {
  [key: string]: unknown;
  id: number;
  email: string;
  username: string;
  password_hash: string | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  phone_code: string | null;
  phone: string | null;
  date_of_birth: Date | string | null;
  gender: 'male' | 'female' | 'other' | null;
  address: string | null;
  city: string | null;
  state_code: string | null;
  country_code: string | null;
  zip_code: string | null;
  profile_image_id: string | null;
  profile_image_type: 'jpeg' | 'png' | null;
  email_verified_at: Date | null;
  active: boolean;
  referral_code: string;
  referred_by_user_id: number | null;
  google_sub: string | null;
  facebook_id: string | null;
  self_excluded_until: Date | null;
  self_exclusion_permanent: boolean;
  session_limit_minutes: number | null;
  created_at: Date;
  updated_at: Date;
  last_login_at: Date | null;
}

export function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  return maybeOne<UserRow>(db, 'SELECT * FROM users WHERE id = $1', [id]);
}

export function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return maybeOne<UserRow>(db, 'SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
}

/** Login accepts the email or the username in one field. */
export function findUserByLogin(db: Queryable, login: string): Promise<UserRow | undefined> {
  return maybeOne<UserRow>(
    db,
    'SELECT * FROM users WHERE lower(email) = lower($1) OR lower(username) = lower($1) ORDER BY id LIMIT 1',
    [login],
  );
}

/** A date column as 'YYYY-MM-DD' whatever the driver returned. */
export function isoDate(value: Date | string | null): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value.slice(0, 10);
  return value.toISOString().slice(0, 10);
}

/** Self-excluded now: permanently, or until a moment still in the future. */
export function isSelfExcluded(user: Pick<UserRow, 'self_excluded_until' | 'self_exclusion_permanent'>, now: Date): boolean {
  return user.self_exclusion_permanent || (user.self_excluded_until !== null && user.self_excluded_until > now);
}

/** The basic information identity verification needs before documents can be submitted. */
export function hasCompleteProfile(user: UserRow): boolean {
  return [
    user.first_name,
    user.last_name,
    user.phone_code,
    user.phone,
    user.date_of_birth,
    user.gender,
    user.address,
    user.city,
    user.state_code,
    user.country_code,
    user.zip_code,
  ].every((value) => value !== null && value !== '');
}

/**
 * Whether another account has this phone number. Calling codes written with or without '+' ("+351",
 * "351") are one code, as in the users_phone_unique index.
 */
export async function isPhoneTaken(db: Queryable, phoneCode: string, phone: string, exceptUserId: number | null = null): Promise<boolean> {
  const row = await maybeOne(
    db,
    "SELECT 1 FROM users WHERE ltrim(phone_code, '+') = ltrim($1, '+') AND phone = $2 AND ($3::bigint IS NULL OR id <> $3)",
    [phoneCode, phone, exceptUserId],
  );
  return row !== undefined;
}

/** The personal details that signup and the profile form both set. */
export interface PersonalDetails {
  firstName: string;
  middleName?: string | null;
  lastName: string;
  phoneCode: string;
  phone: string;
  dateOfBirth: string;
  /** One of GENDERS: the rules have checked it (the database CHECK holds it too). */
  gender: string;
  address: string;
  city: string;
  stateCode: string;
  countryCode: string;
  zipCode: string;
}

/** The users columns of the personal details, in the order of {@link personalValues}. */
export const PERSONAL_COLUMNS = [
  'first_name',
  'middle_name',
  'last_name',
  'phone_code',
  'phone',
  'date_of_birth',
  'gender',
  'address',
  'city',
  'state_code',
  'country_code',
  'zip_code',
] as const;

/** The personal details as stored: names and places trimmed, an empty middle name as none. */
export function personalValues(input: PersonalDetails): unknown[] {
  return [
    input.firstName.trim(),
    input.middleName?.trim() || null,
    input.lastName.trim(),
    input.phoneCode,
    input.phone,
    input.dateOfBirth,
    input.gender,
    input.address.trim(),
    input.city.trim(),
    input.stateCode,
    input.countryCode,
    input.zipCode,
  ];
}

/** Whether a username is in use, whatever its case (the signup form checks as the player types). */
export async function isUsernameTaken(db: Queryable, username: string): Promise<boolean> {
  const row = await one<{ taken: boolean }>(db, 'SELECT EXISTS (SELECT 1 FROM users WHERE lower(username) = lower($1)) AS taken', [
    username,
  ]);
  return row.taken;
}

/** Activates or inactivates an account by its email (an operator's act; the simulator's in tests). */
export async function setUserActive(db: Queryable, email: string, active: boolean, now: Date): Promise<void> {
  const rows = await db.query('UPDATE users SET active = $2, updated_at = $3 WHERE lower(email) = lower($1) RETURNING id', [email, active, now]);
  if (rows.length === 0) throw new DomainError('USER_DOES_NOT_EXISTS');
}
