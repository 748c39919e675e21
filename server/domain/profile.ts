import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AddressInput, ProfileUpdateInput } from '../../src/rules/user.ts';
import { checkFileContent, sniffFileType } from '../../src/rules/files.ts';
import { validate } from '../../src/rules/validate.ts';
import type { AppContext } from '../context.ts';
import { maybeOne, one, type Queryable } from '../db/db.ts';
import { ApiError, badRequest } from '../errors.ts';
import type { UserRow } from './users.ts';

/** Country and state must be ones the server lists; a country without listed states takes any state code. */
export async function checkRegion(db: Queryable, countryCode: string, stateCode: string): Promise<void> {
  const country = await maybeOne<{ states: number }>(
    db,
    'SELECT (SELECT count(*) FROM states s WHERE s.country_code = c.code) AS states FROM countries c WHERE c.code = $1',
    [countryCode],
  );
  if (!country) throw badRequest([{ field: 'countryCode', code: 'country' }]);
  if (country.states > 0) {
    const state = await maybeOne(db, 'SELECT 1 FROM states WHERE country_code = $1 AND code = $2', [countryCode, stateCode]);
    if (!state) throw badRequest([{ field: 'stateCode', code: 'state' }]);
  }
}

export async function updateProfile(ctx: AppContext, userId: number, body: unknown): Promise<UserRow> {
  const result = validate(ProfileUpdateInput, body);
  if (!result.ok) throw badRequest(result.fields);
  const input = result.value;
  await checkRegion(ctx.db, input.countryCode, input.stateCode);
  try {
    return await ctx.db.transaction(async (tx) => {
      const usernameTaken = await maybeOne(tx, 'SELECT 1 FROM users WHERE lower(username) = lower($1) AND id <> $2', [
        input.username,
        userId,
      ]);
      if (usernameTaken) throw new ApiError(409, 'USERNAME_IS_TAKEN');
      const phoneTaken = await maybeOne(tx, 'SELECT 1 FROM users WHERE phone_code = $1 AND phone = $2 AND id <> $3', [
        input.phoneCode,
        input.phone,
        userId,
      ]);
      if (phoneTaken) throw new ApiError(409, 'PHONE_IS_TAKEN');
      return one<UserRow>(
        tx,
        `UPDATE users SET first_name = $2, middle_name = $3, last_name = $4, username = $5, phone_code = $6, phone = $7,
           date_of_birth = $8, gender = $9, address = $10, city = $11, state_code = $12, country_code = $13,
           zip_code = $14, updated_at = $15
         WHERE id = $1 RETURNING *`,
        [
          userId,
          input.firstName.trim(),
          input.middleName?.trim() || null,
          input.lastName.trim(),
          input.username,
          input.phoneCode,
          input.phone,
          input.dateOfBirth,
          input.gender,
          input.address.trim(),
          input.city.trim(),
          input.stateCode,
          input.countryCode,
          input.zipCode,
          ctx.now(),
        ],
      );
    });
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      const detail = String((error as { constraint?: string; message?: string }).constraint ?? (error as Error).message);
      throw new ApiError(409, detail.includes('phone') ? 'PHONE_IS_TAKEN' : 'USERNAME_IS_TAKEN');
    }
    throw error;
  }
}

export async function updateSessionLimit(ctx: AppContext, userId: number, minutes: number | null): Promise<number | null> {
  const row = await one<{ session_limit_minutes: number | null }>(
    ctx.db,
    'UPDATE users SET session_limit_minutes = $2, updated_at = $3 WHERE id = $1 RETURNING session_limit_minutes',
    [userId, minutes, ctx.now()],
  );
  return row.session_limit_minutes;
}

// Addresses

export interface AddressRow {
  [key: string]: unknown;
  id: number;
  user_id: number;
  label: string | null;
  address: string;
  city: string;
  state_code: string;
  country_code: string;
  zip_code: string;
  created_at: Date;
}

export function listAddresses(db: Queryable, userId: number): Promise<AddressRow[]> {
  return db.query<AddressRow>('SELECT * FROM addresses WHERE user_id = $1 ORDER BY id', [userId]);
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

async function validAddress(ctx: AppContext, body: unknown) {
  const result = validate(AddressInput, body);
  if (!result.ok) throw badRequest(result.fields);
  await checkRegion(ctx.db, result.value.countryCode, result.value.stateCode);
  return result.value;
}

const MAX_ADDRESSES = 20;

export async function addAddress(ctx: AppContext, userId: number, body: unknown): Promise<AddressRow> {
  const input = await validAddress(ctx, body);
  try {
    return await ctx.db.transaction(async (tx) => {
      const { count } = await one<{ count: number }>(tx, 'SELECT count(*) AS count FROM addresses WHERE user_id = $1', [userId]);
      if (count >= MAX_ADDRESSES) throw badRequest([{ field: '', code: 'address.limit' }]);
      return one<AddressRow>(
        tx,
        `INSERT INTO addresses (user_id, label, address, city, state_code, country_code, zip_code)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
        [userId, input.label?.trim() || null, input.address.trim(), input.city.trim(), input.stateCode, input.countryCode, input.zipCode],
      );
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, 'ADDRESS_ALREADY_EXISTS');
    throw error;
  }
}

export async function updateAddress(ctx: AppContext, userId: number, addressId: number, body: unknown): Promise<AddressRow> {
  const input = await validAddress(ctx, body);
  try {
    const row = await maybeOne<AddressRow>(
      ctx.db,
      `UPDATE addresses SET label = $3, address = $4, city = $5, state_code = $6, country_code = $7, zip_code = $8, updated_at = now()
       WHERE id = $1 AND user_id = $2 RETURNING *`,
      [addressId, userId, input.label?.trim() || null, input.address.trim(), input.city.trim(), input.stateCode, input.countryCode, input.zipCode],
    );
    // Another player's address is reported exactly like a missing one.
    if (!row) throw new ApiError(404, 'NOT_FOUND');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError(409, 'ADDRESS_ALREADY_EXISTS');
    throw error;
  }
}

export async function removeAddress(ctx: AppContext, userId: number, addressId: number): Promise<void> {
  const rows = await ctx.db.query('DELETE FROM addresses WHERE id = $1 AND user_id = $2 RETURNING id', [addressId, userId]);
  if (rows.length === 0) throw new ApiError(404, 'NOT_FOUND');
}

// Profile image: stored under the data folder by a random id, served with the type sniffed at upload.

function imagesDir(ctx: AppContext): string {
  return join(ctx.uploadsDir, 'profile-images');
}

export async function setProfileImage(ctx: AppContext, user: UserRow, fileName: string, bytes: Buffer): Promise<UserRow> {
  const issue = checkFileContent(bytes, 'profileImage', fileName);
  if (issue === 'file.size') throw new ApiError(413, 'FILE_TOO_LARGE');
  if (issue !== null) throw new ApiError(415, 'FILE_FORMAT_NOT_SUPPORTED', [{ field: 'file', code: issue }]);
  const type = sniffFileType(bytes);
  if (type !== 'jpeg' && type !== 'png') throw new ApiError(415, 'FILE_FORMAT_NOT_SUPPORTED');
  const imageId = randomBytes(18).toString('base64url');
  mkdirSync(imagesDir(ctx), { recursive: true });
  writeFileSync(join(imagesDir(ctx), imageId), bytes);
  const updated = await one<UserRow>(
    ctx.db,
    'UPDATE users SET profile_image_id = $2, profile_image_type = $3, updated_at = $4 WHERE id = $1 RETURNING *',
    [user.id, imageId, type, ctx.now()],
  );
  if (user.profile_image_id) rmSync(join(imagesDir(ctx), user.profile_image_id), { force: true });
  return updated;
}

export async function removeProfileImage(ctx: AppContext, user: UserRow): Promise<UserRow> {
  const updated = await one<UserRow>(
    ctx.db,
    'UPDATE users SET profile_image_id = NULL, profile_image_type = NULL, updated_at = $2 WHERE id = $1 RETURNING *',
    [user.id, ctx.now()],
  );
  if (user.profile_image_id) rmSync(join(imagesDir(ctx), user.profile_image_id), { force: true });
  return updated;
}

export async function readProfileImage(ctx: AppContext, imageId: string): Promise<{ bytes: Buffer; type: 'jpeg' | 'png' } | null> {
  const row = await maybeOne<{ profile_image_type: 'jpeg' | 'png' }>(
    ctx.db,
    'SELECT profile_image_type FROM users WHERE profile_image_id = $1',
    [imageId],
  );
  if (!row) return null;
  try {
    return { bytes: readFileSync(join(imagesDir(ctx), imageId)), type: row.profile_image_type };
  } catch {
    return null;
  }
}
